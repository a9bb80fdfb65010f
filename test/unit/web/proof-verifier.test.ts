import { createHash } from 'node:crypto';
import { planHourCommit } from '../../../domain/ledger/commit-chain';
import { COMPOSITE_LEAF_V1 } from '../../../domain/ledger/composite-leaf';
import { proofDocument, verifyProofDocument, type ProofDocument } from '../../../domain/ledger/ledger-proof';
import { LEDGER_TRACKS } from '../../../domain/ledger/ledger-tracks';
import { LEAF_FORMATS } from '../../../web/ledger/leaf-formats';
import { verifyProof, type ProofCommit } from '../../../web/ledger/proof-verifier';
import { HOUR, gradProbCommit, perpsCommit, sampleComposite } from '../ledger/ledger-fixtures';

/**
 * The dashboard's proof checker (Web Crypto, written from docs/ledger-format.md) against proofs domain/ledger
 * builds: it accepts every leaf of trees of many sizes, rejects every tampering, and agrees with the domain's
 * own verifier on each. Node's global `crypto.subtle` is the same Web Crypto API the browser has.
 */
const flip = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);
const commitOf = (doc: ProofDocument): ProofCommit => ({ track: doc.track, hour: doc.hour, leafCount: doc.leaf_count, rootHex: doc.merkle_root_hex });

describe('the browser proof checker', () => {
  it('knows exactly the leaf formats domain/ledger commits', () => {
    const domain = Object.fromEntries(
      Object.entries(LEDGER_TRACKS).map(([track, t]) => [
        track,
        Object.fromEntries(Object.entries(t.versions).map(([v, f]) => [v, [...(f as { fields: readonly string[] }).fields]])),
      ]),
    );
    expect(JSON.parse(JSON.stringify(LEAF_FORMATS))).toEqual(domain);
  });

  it('accepts every leaf of trees of 1, 2, 3, 5, 7, 8 and 100 leaves, with and without the commit', async () => {
    for (const n of [1, 2, 3, 5, 7, 8, 100]) {
      const commit = gradProbCommit(n, n);
      for (let i = 0; i < n; i++) {
        const doc = proofDocument(commit, i);
        const r = await verifyProof(doc, commitOf(doc));
        expect([n, i, r.ok, r.checks.map((c) => c.step)]).toEqual([
          n,
          i,
          true,
          ['proof document', 'leaf payload', 'hour', 'leaf hash', 'path shape', 'root', 'published commit'],
        ]);
        expect(r.leaf).toEqual(JSON.parse(doc.leaf_payload));
      }
    }
  });

  it('accepts composite leaves and reads their fields', async () => {
    const leaves = [1, 2, 3].map((k) => COMPOSITE_LEAF_V1.build(sampleComposite({ id: k, predictedAt: new Date(HOUR.getTime() + k * 60_000) })));
    const doc = proofDocument(planHourCommit({ track: 'composite', leafVersion: 1, hourStart: HOUR, leaves, previous: null })!, 1);
    const r = await verifyProof(doc);
    expect(r.ok).toBe(true);
    expect(r.leaf).toMatchObject({ id: 2, tier: 'ACT', track: 'composite' });
  });

  it('accepts perps leaves, placed in the hour by their detected_at', async () => {
    const doc = proofDocument(perpsCommit(3), 2);
    const r = await verifyProof(doc, commitOf(doc));
    expect(r.ok).toBe(true);
    expect(r.checks.find((c) => c.step === 'hour')!.detail).toBe(`detected_at 2026-11-23T14:00:01.000Z lies in the hour ${doc.hour}`);
    const moved = await verifyProof({ ...doc, hour: new Date(HOUR.getTime() - 3_600_000).toISOString() });
    expect(moved.checks.find((c) => !c.ok)).toMatchObject({ step: 'hour', detail: 'detected_at lies outside the proof’s hour' });
  });

  it('rejects every tampering, at the step that shows it, as domain/ledger does', async () => {
    const commit = gradProbCommit(7);
    const doc = proofDocument(commit, 4);
    const last = proofDocument(gradProbCommit(3), 2);
    const other = proofDocument(commit, 5);
    const forgedFourth: ProofDocument = {
      ...last,
      leaf_count: 4,
      leaf_index: 3,
      siblings: [
        { hash: last.leaf_hash, side: 'left' },
        { ...last.siblings[1]!, side: 'left' },
      ],
    };
    expect((await verifyProof(forgedFourth)).ok).toBe(true);
    const withHash = (payload: string) => ({ leaf_payload: payload, leaf_hash: createHash('sha256').update(payload).digest('hex') });
    const cases: [string, ProofDocument, string, ProofCommit?][] = [
      ['payload', { ...doc, leaf_payload: doc.leaf_payload.replace('"grad_prob":"', '"grad_prob":"0') }, 'leaf hash'],
      ['payload and its hash', { ...doc, ...withHash(doc.leaf_payload.replace('"mint":"', '"mint":"X')) }, 'root'],
      ['non-canonical payload', { ...doc, ...withHash(doc.leaf_payload.replace(':', ': ')) }, 'leaf payload'],
      ['a field too many', { ...doc, ...withHash(doc.leaf_payload.replace('{', '{"extra":1,')) }, 'leaf payload'],
      ['unknown version', { ...doc, ...withHash(doc.leaf_payload.replace('"leaf_version":1', '"leaf_version":2')), leaf_version: 2 }, 'leaf payload'],
      ['leaf hash', { ...doc, leaf_hash: flip(doc.leaf_hash) }, 'leaf hash'],
      ['sibling', { ...doc, siblings: doc.siblings.map((s, i) => (i === 1 ? { ...s, hash: flip(s.hash) } : s)) }, 'root'],
      ['side', { ...doc, siblings: doc.siblings.map((s, i) => (i === 2 ? { ...s, side: s.side === 'left' ? 'right' : 'left' } : s)) }, 'path shape'],
      ['a sibling dropped', { ...doc, siblings: doc.siblings.slice(1) }, 'path shape'],
      ['root', { ...doc, merkle_root_hex: flip(doc.merkle_root_hex) }, 'root'],
      ['index', { ...doc, leaf_index: 5 }, 'path shape'],
      ['another leaf on this path', { ...doc, leaf_payload: other.leaf_payload, leaf_hash: other.leaf_hash }, 'root'],
      ['hour', { ...doc, hour: '2026-11-23T15:00:00.000Z' }, 'hour'],
      ['track', { ...doc, track: 'composite' }, 'leaf payload'],
      ['self-pair that is not the node', { ...last, siblings: last.siblings.map((s, i) => (i === 0 ? { ...s, hash: flip(s.hash) } : s)) }, 'path'],
      // A forged count (4 for a 3-leaf hour) passes for the self-paired copy of the last leaf: only the commit shows it.
      ['count, against the commit', forgedFourth, 'published commit', commitOf(last)],
      ['root, against another commit', doc, 'published commit', { ...commitOf(doc), rootHex: flip(doc.merkle_root_hex) }],
    ];
    for (const [what, tampered, step, published] of cases) {
      const r = await verifyProof(tampered, published);
      const failed = r.checks.find((c) => !c.ok);
      expect([what, r.ok, failed?.step]).toEqual([what, false, step]);
      const domain = verifyProofDocument(
        tampered,
        published && { track: published.track, hourStart: new Date(published.hour), leafCount: published.leafCount, rootHex: published.rootHex },
      );
      expect([what, domain.ok]).toEqual([what, false]);
    }
  });

  it('says what is wrong with something that is not a proof', async () => {
    for (const input of [null, 'x', [], {}, { ...proofDocument(gradProbCommit(2), 0), siblings: [{ hash: 'zz', side: 'up' }] }]) {
      const r = await verifyProof(input);
      expect(r.ok).toBe(false);
      expect(r.checks).toEqual([{ step: 'proof document', ok: false, detail: expect.any(String) }]);
    }
  });
});
