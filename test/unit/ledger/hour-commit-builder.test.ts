import { planHourCommit } from '../../../domain/ledger/commit-chain';
import { GRAD_PROB_LEAF_V1 } from '../../../domain/ledger/grad-prob-leaf';
import { compareLeafOrder } from '../../../domain/ledger/ledger-hour';
import { HourCommitBuilder } from '../../../domain/ledger/hour-commit-builder';
import { merkleProof, sameDigest } from '../../../domain/ledger/merkle-tree';
import { siblingPositions, stepsFromPath } from '../../../domain/ledger/proof-path';
import { gradProbRows, HOUR, sampleGradProb } from './ledger-fixtures';

const leavesOf = (n: number, seed = 3) => gradProbRows(n, seed).map((r) => GRAD_PROB_LEAF_V1.build(r));

describe('HourCommitBuilder (the streaming commit the activity uses)', () => {
  it.each([1, 2, 3, 7, 64, 301])('gives the same record and levels as planHourCommit for %i leaves', (n) => {
    const leaves = leavesOf(n);
    const previous = planHourCommit({
      track: 'grad_prob',
      leafVersion: 1,
      hourStart: new Date(HOUR.getTime() - 3_600_000),
      leaves: leavesOf(2, 9).map((l) => ({ ...l, predictedAt: new Date(l.predictedAt.getTime() - 3_600_000) })),
      previous: null,
    });
    const planned = planHourCommit({ track: 'grad_prob', leafVersion: 1, hourStart: HOUR, leaves, previous: previous?.record ?? null })!;
    // A small expected count: the buffer must grow.
    const b = new HourCommitBuilder('grad_prob', 1, HOUR, 1);
    for (const leaf of [...leaves].sort(compareLeafOrder)) b.add(leaf);
    const built = b.finish(previous!.record)!;
    expect(built.record).toEqual(planned.record);
    const hex = (l: Uint8Array) => Buffer.from(l).toString('hex');
    expect(built.levels.map(hex)).toEqual(planned.levels.map(hex));
    expect(built.ids).toEqual(planned.leaves.map((l) => l.id));
    expect(built.record.prevRootHex).toBe(previous!.record.rootHex);
  });

  it('refuses leaves out of tree order, outside the hour, or of another track or version', () => {
    const [a, b] = [...leavesOf(2, 5)].sort(compareLeafOrder);
    const out = new HourCommitBuilder('grad_prob', 1, HOUR);
    out.add(b!);
    expect(() => out.add(a!)).toThrow(/comes after/);
    expect(() => out.add(b!)).toThrow(/comes after/); // the same leaf twice
    const late = GRAD_PROB_LEAF_V1.build(sampleGradProb({ predictedAt: new Date(HOUR.getTime() + 3_600_000) }));
    expect(() => new HourCommitBuilder('grad_prob', 1, HOUR).add(late)).toThrow(/outside the hour/);
    expect(() => new HourCommitBuilder('composite', 1, HOUR).add(a!)).toThrow(/not composite v1/);
    expect(() => new HourCommitBuilder('grad_prob', 2, HOUR).add(a!)).toThrow(/not grad_prob v2/);
    expect(() => new HourCommitBuilder('grad_prob', 1, new Date(HOUR.getTime() + 1))).toThrow(/whole UTC hour/);
  });

  it('has no commit for an empty hour, and chains only to an earlier hour of the same track', () => {
    expect(new HourCommitBuilder('grad_prob', 1, HOUR).finish(null)).toBeNull();
    const b = new HourCommitBuilder('grad_prob', 1, HOUR);
    b.add(leavesOf(1)[0]!);
    expect(() => b.finish({ track: 'grad_prob', hourStart: HOUR, rootHex: 'a'.repeat(64) })).toThrow(/earlier hour/);
    expect(() => b.finish({ track: 'composite', hourStart: new Date(0), rootHex: 'a'.repeat(64) })).toThrow(/same track/);
  });
});

describe('siblingPositions (proofs cut from stored levels)', () => {
  it.each([1, 2, 3, 5, 8, 13, 100])('names exactly the siblings merkleProof reads, for every leaf of %i', (n) => {
    const built = planHourCommit({ track: 'grad_prob', leafVersion: 1, hourStart: HOUR, leaves: leavesOf(n, n), previous: null })!;
    for (let i = 0; i < n; i++) {
      const positions = siblingPositions(i, n);
      const steps = merkleProof(built.levels, i);
      expect(positions.map((p) => p.side)).toEqual(steps.map((s) => s.side));
      positions.forEach((p, k) => {
        const node = built.levels[p.level]!.subarray(p.index * 32, p.index * 32 + 32);
        expect(sameDigest(node, steps[k]!.hash)).toBe(true);
      });
    }
  });
});

describe('stepsFromPath (a whole path read in one statement, before the leaf count is known)', () => {
  // What the store's SQL returns: the leaf, and per level the slice at (index >> level) ^ 1, empty past the end.
  const slice = (level: Uint8Array, at: number) => level.subarray(at * 32, Math.min(level.length, at * 32 + 32));
  const hex = (steps: { hash: Uint8Array; side: string }[]) => steps.map((s) => [s.side, Buffer.from(s.hash).toString('hex')]);
  it.each([1, 2, 3, 5, 6, 7, 8, 13, 100])("gives merkleProof's steps for every leaf of %i, self-pairs hashed up from the leaf", (n) => {
    const built = planHourCommit({ track: 'grad_prob', leafVersion: 1, hourStart: HOUR, leaves: leavesOf(n, n), previous: null })!;
    for (let i = 0; i < n; i++) {
      const partners = built.levels.map((l, level) => slice(l, (i >>> level) ^ 1));
      expect(hex(stepsFromPath(i, n, slice(built.levels[0]!, i), partners))).toEqual(hex(merkleProof(built.levels, i)));
    }
  });
  it('refuses a stored tree shorter than the leaf count says', () => {
    const built = planHourCommit({ track: 'grad_prob', leafVersion: 1, hourStart: HOUR, leaves: leavesOf(4, 4), previous: null })!;
    expect(() => stepsFromPath(0, 4, slice(built.levels[0]!, 0), [slice(built.levels[0]!, 1)])).toThrow(/no node at level 1/);
  });
});
