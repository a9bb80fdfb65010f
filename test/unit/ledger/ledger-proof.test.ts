import { createHash } from 'node:crypto';
import { planHourCommit } from '../../../domain/ledger/commit-chain';
import { COMPOSITE_LEAF_V1 } from '../../../domain/ledger/composite-leaf';
import { proofDocument, verifyProofDocument, type ProofDocument } from '../../../domain/ledger/ledger-proof';
import { HOUR, gradProbCommit, perpsCommit, sampleComposite } from './ledger-fixtures';

const flip = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);

describe('proof documents', () => {
  it('prove every leaf of trees of 1, 2, 3, 5, 7 and 300 leaves', () => {
    for (const n of [1, 2, 3, 5, 7, 300]) {
      const commit = gradProbCommit(n, n);
      for (let i = 0; i < n; i++) {
        const doc = proofDocument(commit, i);
        expect([n, i, verifyProofDocument(doc)]).toEqual([n, i, { ok: true }]);
      }
    }
  });

  it('have the documented shape', () => {
    const doc = proofDocument(gradProbCommit(3), 2);
    expect(Object.keys(doc).sort()).toEqual([
      'hour',
      'leaf_count',
      'leaf_hash',
      'leaf_index',
      'leaf_payload',
      'leaf_version',
      'merkle_root_hex',
      'siblings',
      'track',
    ]);
    expect(doc).toMatchObject({ track: 'grad_prob', leaf_version: 1, hour: '2026-11-23T14:00:00.000Z', leaf_index: 2, leaf_count: 3 });
    expect(doc.siblings.map((s) => s.side)).toEqual(['right', 'left']);
    // The last of three leaves pairs with itself.
    expect(doc.siblings[0]!.hash).toBe(doc.leaf_hash);
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it('prove composite leaves too', () => {
    const leaves = [1, 2, 3].map((k) => COMPOSITE_LEAF_V1.build(sampleComposite({ id: k, predictedAt: new Date(HOUR.getTime() + k * 60_000) })));
    const commit = planHourCommit({ track: 'composite', leafVersion: 1, hourStart: HOUR, leaves, previous: null })!;
    expect(verifyProofDocument(proofDocument(commit, 1))).toEqual({ ok: true });
  });

  it('prove perps leaves, placed in the hour by their detected_at (perps v1 has no predicted_at)', () => {
    const commit = perpsCommit(5);
    for (let i = 0; i < 5; i++) expect(verifyProofDocument(proofDocument(commit, i))).toEqual({ ok: true });
    // The same leaf claimed for the next hour: its detected_at is outside it.
    const doc = proofDocument(commit, 2);
    const next = { ...doc, hour: new Date(HOUR.getTime() + 3_600_000).toISOString() };
    expect(verifyProofDocument(next)).toEqual({ ok: false, problem: 'leaf detected_at is outside the hour' });
  });

  it('fail for any tampering: payload, leaf hash, sibling, side, root, index, hour, track (and count, given the commit)', () => {
    const commit = gradProbCommit(7);
    const doc = proofDocument(commit, 4);
    const other = proofDocument(commit, 5);
    const payloadWithHash = (payload: string) => ({ leaf_payload: payload, leaf_hash: createHash('sha256').update(payload).digest('hex') });
    const tampered: [string, Partial<ProofDocument>, RegExp][] = [
      ['payload', { leaf_payload: doc.leaf_payload.replace('"mint":"', '"mint":"X') }, /leaf_hash is not SHA-256/],
      ['payload and its hash', payloadWithHash(doc.leaf_payload.replace('"mint":"', '"mint":"X')), /does not arrive at the root/],
      ['non-canonical payload', payloadWithHash(` ${doc.leaf_payload}`), /canonical/],
      ['leaf hash', { leaf_hash: flip(doc.leaf_hash) }, /leaf_hash is not SHA-256/],
      ['sibling', { siblings: doc.siblings.map((s, i) => (i === 1 ? { ...s, hash: flip(s.hash) } : s)) }, /does not arrive at the root|must equal it/],
      ['side', { siblings: doc.siblings.map((s, i) => (i === 2 ? { ...s, side: s.side === 'left' ? 'right' : 'left' } : s)) }, /should be on the/],
      ['root', { merkle_root_hex: flip(doc.merkle_root_hex) }, /does not arrive at the root/],
      ['index', { leaf_index: 5 }, /should be on the|does not arrive/],
      ['another leaf with this path', { leaf_payload: other.leaf_payload, leaf_hash: other.leaf_hash }, /does not arrive|must equal it/],
      ['count beyond the path', { leaf_count: 9 }, /has 4 siblings/],
      ['index beyond the count', { leaf_index: 7 }, /outside/],
      ['hour', { hour: '2026-11-23T15:00:00.000Z' }, /outside the hour/],
      ['hour form', { hour: '2026-11-23T14:00:00Z' }, /YYYY-MM-DDTHH/],
      ['track', { track: 'composite' }, /differs from the proof/],
      ['uppercase root', { merkle_root_hex: doc.merkle_root_hex.toUpperCase() }, /lowercase hex/],
    ];
    for (const [name, change, problem] of tampered) {
      const verdict = verifyProofDocument({ ...doc, ...change });
      expect({ name, ok: verdict.ok }).toEqual({ name, ok: false });
      expect({ name, problem: verdict.ok ? '' : verdict.problem }).toEqual({ name, problem: expect.stringMatching(problem) });
    }
    // 7 and 8 leaves give leaf 4 the same path: only the published commit pins the count.
    expect(verifyProofDocument({ ...doc, leaf_count: 8 })).toEqual({ ok: true });
    expect(verifyProofDocument({ ...doc, leaf_count: 8 }, commit.record)).toMatchObject({ ok: false });
  });

  it('refuse the duplicated-node trick once checked against the published commit', () => {
    // [a, b, c] and [a, b, c, c] share a root: "leaf 3 of 4" walks to it through the self-paired copy of c.
    const commit = gradProbCommit(3);
    const doc = proofDocument(commit, 2);
    const forged = { ...doc, leaf_index: 3, leaf_count: 4, siblings: [{ hash: doc.leaf_hash, side: 'left' as const }, doc.siblings[1]!] };
    expect(verifyProofDocument(forged)).toEqual({ ok: true });
    expect(verifyProofDocument(forged, commit.record)).toEqual({ ok: false, problem: expect.stringMatching(/published commit/) });
    expect(verifyProofDocument({ ...forged, leaf_count: 3 })).toEqual({ ok: false, problem: 'leaf index 3 is outside 0..2' });
    expect(verifyProofDocument(doc, commit.record)).toEqual({ ok: true });
    expect(verifyProofDocument(doc, { ...commit.record, hourStart: new Date(HOUR.getTime() + 3_600_000) })).toMatchObject({ ok: false });
  });
});
