import { createHash } from 'node:crypto';
import { planHourCommit, verifyCommitChain } from '../../../domain/ledger/commit-chain';
import { commitRecordDigestHex, commitRecordPayload, type CommitRecord } from '../../../domain/ledger/commit-record';
import { COMPOSITE_LEAF_V1 } from '../../../domain/ledger/composite-leaf';
import { GRAD_PROB_LEAF_V1 } from '../../../domain/ledger/grad-prob-leaf';
import { compareLeafOrder, utcHourStart } from '../../../domain/ledger/ledger-hour';
import { merkleRoot, packDigests } from '../../../domain/ledger/merkle-tree';
import { HOUR, gradProbRows, sampleComposite, sampleGradProb } from './ledger-fixtures';

const hoursAfter = (n: number) => new Date(HOUR.getTime() + n * 3_600_000);
const build = (over: Parameters<typeof sampleGradProb>[0]) => GRAD_PROB_LEAF_V1.build(sampleGradProb(over));

/** A track's chain of `n` consecutive hourly commits over generated rows. */
function chain(n: number): (CommitRecord & { digestHex: string })[] {
  const out: (CommitRecord & { digestHex: string })[] = [];
  for (let k = 0; k < n; k++) {
    const leaves = gradProbRows(3 + k, k + 1).map((r) => GRAD_PROB_LEAF_V1.build({ ...r, predictedAt: new Date(r.predictedAt.getTime() + k * 3_600_000) }));
    const c = planHourCommit({ track: 'grad_prob', leafVersion: 1, hourStart: hoursAfter(k), leaves, previous: out[k - 1] ?? null })!;
    out.push({ ...c.record, digestHex: commitRecordDigestHex(c.record) });
  }
  return out;
}

describe('an hour commit', () => {
  it('orders leaves by predicted_at then id, and records count, first and last id, root and the previous root', () => {
    const leaves = [
      build({ id: 9, predictedAt: new Date('2026-11-23T14:30:00.000Z') }),
      build({ id: 7, predictedAt: new Date('2026-11-23T14:59:59.999Z') }),
      build({ id: 8, predictedAt: new Date('2026-11-23T14:30:00.000Z') }),
      build({ id: 12, predictedAt: new Date('2026-11-23T14:00:00.000Z') }),
    ];
    const previous = chain(1)[0]!;
    const first = planHourCommit({ track: 'grad_prob', leafVersion: 1, hourStart: HOUR, leaves, previous: null })!;
    expect(first.leaves.map((l) => l.id)).toEqual([12, 8, 9, 7]);
    expect(first.record).toMatchObject({ track: 'grad_prob', hourStart: HOUR, leafVersion: 1, leafCount: 4, firstId: 12, lastId: 7, prevRootHex: null });
    expect(first.record.rootHex).toBe(
      Buffer.from(merkleRoot(packDigests([leaves[3]!, leaves[2]!, leaves[0]!, leaves[1]!].map((l) => l.hash)))).toString('hex'),
    );
    expect(first.levels[0]!.length).toBe(4 * 32);

    const later = planHourCommit({ track: 'grad_prob', leafVersion: 1, hourStart: hoursAfter(3), leaves: [build({ predictedAt: hoursAfter(3) })], previous })!;
    expect(later.record.prevRootHex).toBe(previous.rootHex);
  });

  it('is the same commit whatever order the rows arrive in', () => {
    const leaves = gradProbRows(50).map((r) => GRAD_PROB_LEAF_V1.build(r));
    const a = planHourCommit({ track: 'grad_prob', leafVersion: 1, hourStart: HOUR, leaves, previous: null })!;
    const b = planHourCommit({ track: 'grad_prob', leafVersion: 1, hourStart: HOUR, leaves: [...leaves].reverse(), previous: null })!;
    expect(commitRecordDigestHex(b.record)).toBe(commitRecordDigestHex(a.record));
    expect([...a.leaves].sort(compareLeafOrder)).toEqual(a.leaves);
  });

  it('is no commit at all for an empty hour', () => {
    expect(planHourCommit({ track: 'grad_prob', leafVersion: 1, hourStart: HOUR, leaves: [], previous: null })).toBeNull();
  });

  it('refuses leaves outside the hour, repeated ids, another track or version, and a previous commit that is not earlier', () => {
    const plan =
      (leaves: ReturnType<typeof build>[], previous: CommitRecord | null = null) =>
      () =>
        planHourCommit({ track: 'grad_prob', leafVersion: 1, hourStart: HOUR, leaves, previous });
    expect(plan([build({ predictedAt: hoursAfter(1) })])).toThrow(/outside the hour/);
    expect(plan([build({ predictedAt: new Date(HOUR.getTime() - 1) })])).toThrow(/outside the hour/);
    expect(plan([build({ id: 5 }), build({ id: 5, ageBucket: 30 })])).toThrow(/twice/);
    expect(plan([COMPOSITE_LEAF_V1.build(sampleComposite())])).toThrow(/not grad_prob v1/);
    expect(plan([build({})], { ...chain(1)[0]!, hourStart: HOUR })).toThrow(/earlier hour/);
  });

  it('puts a prediction in the UTC hour of its predicted_at', () => {
    expect(utcHourStart(new Date('2026-11-23T14:59:59.999Z')).toISOString()).toBe('2026-11-23T14:00:00.000Z');
    expect(utcHourStart(new Date('2026-11-23T15:00:00.000Z')).toISOString()).toBe('2026-11-23T15:00:00.000Z');
  });
});

describe('commit records', () => {
  const record: CommitRecord = {
    track: 'grad_prob',
    hourStart: HOUR,
    leafVersion: 1,
    leafCount: 5821,
    firstId: 1200331,
    lastId: 1206150,
    rootHex: 'a'.repeat(64),
    prevRootHex: 'b'.repeat(64),
  };

  it('have one frozen canonical form and digest', () => {
    const payload =
      '{"first_id":1200331,"hour":"2026-11-23T14:00:00.000Z","last_id":1206150,"leaf_count":5821,"leaf_version":1,' +
      `"prev_root":"${'b'.repeat(64)}","record_version":1,"root":"${'a'.repeat(64)}","track":"grad_prob"}`;
    expect(commitRecordPayload(record)).toBe(payload);
    expect(commitRecordDigestHex(record)).toBe(createHash('sha256').update(payload).digest('hex'));
    expect(commitRecordPayload({ ...record, prevRootHex: null })).toContain('"prev_root":null,');
  });

  it('refuse malformed fields', () => {
    for (const bad of [
      { hourStart: new Date('2026-11-23T14:00:00.001Z') },
      { track: 'Grad:prob' },
      { leafCount: 0 },
      { firstId: 1.5 },
      { rootHex: 'A'.repeat(64) },
      { prevRootHex: 'abc' },
    ]) {
      expect(() => commitRecordPayload({ ...record, ...bad })).toThrow(RangeError);
    }
  });
});

describe('the hash chain', () => {
  it('verifies an intact chain, from its start or from a known previous root', () => {
    const c = chain(5);
    expect(verifyCommitChain(c)).toEqual({ ok: true });
    expect(verifyCommitChain(c.slice(2), { previousRootHex: c[1]!.rootHex })).toEqual({ ok: true });
    expect(verifyCommitChain([])).toEqual({ ok: true });
  });

  it('detects a removed commit at the commit after it', () => {
    const c = chain(5);
    expect(verifyCommitChain([...c.slice(0, 2), ...c.slice(3)])).toEqual({ ok: false, index: 2, problem: 'prev_root is not the previous commit root' });
    expect(verifyCommitChain(c.slice(1))).toEqual({ ok: false, index: 0, problem: 'first commit links to a previous root' });
  });

  it('detects an altered root at the next link, and other altered fields by the stored digest', () => {
    const c = chain(4);
    const rerooted = c.map((r, i) => (i === 1 ? { ...r, rootHex: 'f'.repeat(64), digestHex: commitRecordDigestHex({ ...r, rootHex: 'f'.repeat(64) }) } : r));
    expect(verifyCommitChain(rerooted)).toEqual({ ok: false, index: 2, problem: 'prev_root is not the previous commit root' });
    const recounted = c.map((r, i) => (i === 1 ? { ...r, leafCount: r.leafCount + 1 } : r));
    expect(verifyCommitChain(recounted)).toEqual({ ok: false, index: 1, problem: 'record digest does not match the record' });
  });

  it('refuses reordered hours, mixed tracks and malformed records', () => {
    const c = chain(3);
    expect(verifyCommitChain([c[0]!, { ...c[1]!, hourStart: c[0]!.hourStart }])).toMatchObject({
      ok: false,
      index: 1,
      problem: 'hour not after the previous commit',
    });
    expect(verifyCommitChain([c[0]!, { ...c[1]!, track: 'composite' }])).toMatchObject({ ok: false, index: 1 });
    expect(verifyCommitChain([{ ...c[0]!, rootHex: 'nope' }])).toMatchObject({ ok: false, index: 0, problem: expect.stringMatching(/^malformed record/) });
  });
});
