import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LeafFieldError } from '../../../domain/ledger/leaf-fields';
import { currentLeafFormat, readLeafPayload } from '../../../domain/ledger/ledger-tracks';
import { VERDICT_LEAF_V1, type VerdictLeafInputV1 } from '../../../domain/ledger/verdict-leaf';

const sample = (): VerdictLeafInputV1 => ({
  id: 1,
  lockedAt: new Date('2027-01-03T01:05:00.000Z'),
  preregistrationId: 'composite-tiers-v1',
  preregistrationSha256: '603dba18'.padEnd(64, '0'),
  branch: 'confirmed',
  verdict: 'supported',
  windowStart: new Date('2026-12-01T00:00:00Z'),
  windowEnd: new Date('2027-01-02T00:00:00Z'),
  evaluationSha256: '5e'.repeat(32),
});

describe('verdict leaf, version 1', () => {
  it('is pinned to these bytes and hash, which docs/ledger-format.md shows with every field', () => {
    const leaf = VERDICT_LEAF_V1.build(sample());
    expect(leaf.payload).toBe(
      '{"branch":"confirmed","evaluation_sha256":"' +
        '5e'.repeat(32) +
        '","id":1,"leaf_version":1,"predicted_at":"2027-01-03T01:05:00.000Z","preregistration_id":"composite-tiers-v1",' +
        '"preregistration_sha256":"603dba18' +
        '0'.repeat(56) +
        '","track":"verdict","verdict":"supported","window_end":"2027-01-02T00:00:00.000Z","window_start":"2026-12-01T00:00:00.000Z"}',
    );
    expect(Buffer.from(leaf.hash).toString('hex')).toBe('1ab3ca271727e9d07b7c07ca0e9414185253c4835e08b8bca4e9aa7a36fed092');
    const doc = readFileSync(join(__dirname, '../../../docs/ledger-format.md'), 'utf8');
    expect(doc).toContain(`\n${leaf.payload}\n`);
    expect(doc).toContain(Buffer.from(leaf.hash).toString('hex'));
    for (const field of VERDICT_LEAF_V1.fields) expect(doc).toContain(`| \`${field}\` |`);
    expect(currentLeafFormat('verdict')).toBe(VERDICT_LEAF_V1);
    expect(readLeafPayload(leaf.payload)).toMatchObject({ ok: true, track: 'verdict', leafVersion: 1 });
  });

  it('refuses a branch, verdict or digest outside the format', () => {
    expect(() => VERDICT_LEAF_V1.build({ ...sample(), branch: 'pending' })).toThrow(LeafFieldError);
    expect(() => VERDICT_LEAF_V1.build({ ...sample(), verdict: 'pending' })).toThrow(LeafFieldError);
    expect(() => VERDICT_LEAF_V1.build({ ...sample(), evaluationSha256: 'AB'.repeat(32) })).toThrow(LeafFieldError);
    expect(() => VERDICT_LEAF_V1.build({ ...sample(), preregistrationSha256: 'ab' })).toThrow(LeafFieldError);
  });
});
