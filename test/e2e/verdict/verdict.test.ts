import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ledgerActivities } from '../../../activities/ledger';
import { verdictActivities } from '../../../activities/verdict';
import { loadConfig } from '../../../platform/config';
import { call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { createTestDatabase } from '../../support/test-db';
import { ROOT } from '../../support/test-env';
import { insertBenchmark, insertTierCrosses } from '../../support/verdict-fixtures';
import type { KnexDb } from '../../../db/knex-handle';

// The registration's T0 is 2026-12-01; these scenarios move it to a past hour (VERDICT_T0_OVERRIDE), as tests may.
const T0 = Date.parse('2026-11-01T00:00:00Z');
const H = 3_600_000;
const DAY = 24 * H;
const ENV = { VERDICT_T0_OVERRIDE: new Date(T0).toISOString() };
/** E: the minimums hold on counts by day 10, so the window ends at T0 + 14 days. */
const E = T0 + 14 * DAY;
const DOC_SHA = createHash('sha256')
  .update(fs.readFileSync(path.join(ROOT, 'docs', 'preregistration', 'composite-tiers-v1.md')))
  .digest('hex');

async function scenario(seed: (db: KnexDb) => Promise<void>) {
  const t = await createTestDatabase();
  await seed(t.db);
  const api = await startApi(t.db, { env: ENV });
  const evaluate = (atMs: number) => verdictActivities.create({ cfg: loadConfig(ENV), db: t.db, now: () => new Date(atMs) }).evaluateRegisteredVerdict();
  const get = async () => {
    const r = await call(`${api.url}/api/verdict`);
    expect(r.status).toBe(200);
    expectConforms('get', '/api/verdict', 200, r.body);
    return r.body;
  };
  return {
    t,
    evaluate,
    get,
    close: async () => {
      await api.close();
      await t.drop();
    },
  };
}

/** 50 crosses per tier over 10 days with the given 5× hits, and 10,000 benchmark mints (100 hits: B = 1%) over 100 hours. */
const tiers = (hits: { ACT: number; WATCH: number; SCOUT: number }) => async (db: KnexDb) => {
  await insertTierCrosses(db, 'ACT', { n: 50, hits: hits.ACT, fromMs: T0 + H, everyMs: 4 * H });
  await insertTierCrosses(db, 'WATCH', { n: 50, hits: hits.WATCH, fromMs: T0 + H + 60_000, everyMs: 4 * H });
  await insertTierCrosses(db, 'SCOUT', { n: 50, hits: hits.SCOUT, fromMs: T0 + H + 120_000, everyMs: 4 * H });
  await insertBenchmark(db, { n: 10_000, hits: 100, fromMs: T0, perHour: 100 });
};

describe('GET /api/verdict', () => {
  it('says what is missing before the lock: not evaluated, not started, then counts, days and resolution', async () => {
    // The first 5 days of evidence; the rest arrives later, as it would.
    const s = await scenario(async (db) => {
      await insertTierCrosses(db, 'ACT', { n: 30, hits: 12, fromMs: T0 + H, everyMs: 4 * H });
      await insertTierCrosses(db, 'WATCH', { n: 30, hits: 6, fromMs: T0 + H, everyMs: 4 * H });
      await insertTierCrosses(db, 'SCOUT', { n: 10, hits: 1, fromMs: T0 + H, everyMs: 4 * H });
      await insertBenchmark(db, { n: 5_000, hits: 50, fromMs: T0, perHour: 100 });
      // Before T0: never counted.
      await insertTierCrosses(db, 'ACT', { n: 3, hits: 3, fromMs: T0 - DAY, everyMs: H });
    });
    try {
      let v = await s.get();
      expect(v).toMatchObject({
        preregistration_id: 'composite-tiers-v1',
        document: 'docs/preregistration/composite-tiers-v1.md',
        registration_sha256: DOC_SHA,
        registered_at: '2026-11-24T00:00:00.000Z',
        t0: new Date(T0).toISOString(),
        verdict: 'pending',
        branch: null,
        locked_at: null,
        evaluated_at: null,
        missing: [{ kind: 'not_evaluated' }],
        snapshot_sha256: null,
        ledger: null,
      });

      expect(await s.evaluate(T0 - H)).toMatchObject({ state: 'pending', missing: ['not_started'] });
      expect((await s.get()).missing).toEqual([{ kind: 'not_started', t0: new Date(T0).toISOString() }]);

      await s.evaluate(T0 + 7 * DAY + 30 * 60_000);
      v = await s.get();
      expect(v.evaluated_at).toBe(new Date(T0 + 7 * DAY + 30 * 60_000).toISOString());
      expect(v.missing).toEqual([
        { kind: 'tier_crosses', tier: 'ACT', have: 30, need: 50 },
        { kind: 'tier_crosses', tier: 'WATCH', have: 30, need: 50 },
        { kind: 'tier_crosses', tier: 'SCOUT', have: 10, need: 50 },
        { kind: 'days', have: 7.021, need: 14 },
        { kind: 'benchmark', have: 5_000, need: 10_000 },
      ]);
      expect(v.tiers.find((x: any) => x.tier === 'ACT')).toMatchObject({ n: 30, hits_5x: 12, rate_5x: 0.4 });
      expect(v.window_end).toBeNull();

      // Days 7–10: the minimums are reached on counts; 20 SCOUT outcomes and 7 benchmark ones are still unresolved.
      const from = T0 + 7 * DAY + H;
      await insertTierCrosses(s.t.db, 'ACT', { n: 20, hits: 8, fromMs: from, everyMs: 4 * H });
      await insertTierCrosses(s.t.db, 'WATCH', { n: 20, hits: 4, fromMs: from, everyMs: 4 * H });
      await insertTierCrosses(s.t.db, 'SCOUT', { n: 20, hits: 1, fromMs: from, everyMs: 4 * H, resolved: false });
      await insertTierCrosses(s.t.db, 'SCOUT', { n: 20, hits: 1, fromMs: from + 60_000, everyMs: 4 * H });
      await insertBenchmark(s.t.db, { n: 5_000, hits: 50, fromMs: from, perHour: 100, unresolved: 7, tag: 'late' });
      await s.evaluate(E + 2 * H);
      v = await s.get();
      expect(v).toMatchObject({ verdict: 'pending', lock_point: new Date(E).toISOString(), window_end: new Date(E).toISOString() });
      expect(v.missing).toEqual([{ kind: 'resolution', unresolved_crosses: 20, unresolved_benchmark: 7, lockable_from: new Date(E + DAY).toISOString() }]);
      // Past E + 24 h, still waiting for the resolver: nothing locks on partial outcomes.
      expect(await s.evaluate(E + DAY + H)).toMatchObject({ state: 'pending', missing: ['resolution'] });
    } finally {
      await s.close();
    }
  });

  it('confirmed → supported: locks once, immutable, reproducible, committed on the ledger’s verdict track', async () => {
    const s = await scenario(tiers({ ACT: 20, WATCH: 10, SCOUT: 4 }));
    try {
      const lockAt = E + DAY + 2 * H + 5 * 60_000;
      const first = await s.evaluate(lockAt);
      expect(first).toMatchObject({ state: 'locked', branch: 'confirmed', created: true });
      expect(await s.evaluate(lockAt + 5 * H)).toEqual({ ...first, created: false });
      let v = await s.get();
      expect(v).toMatchObject({
        verdict: 'supported',
        branch: 'confirmed',
        window_start: new Date(T0).toISOString(),
        window_end: new Date(E).toISOString(),
        locked_at: new Date(lockAt).toISOString(),
        registration_sha256: DOC_SHA,
        missing: [],
        benchmark: { n: 10_000, hits_5x: 100, rate_5x: 0.01 },
        ledger: { track: 'verdict', status: 'pending', commit: null },
      });
      expect(v.tiers.map((x: any) => [x.tier, x.n, x.hits_5x, x.graduated])).toEqual([
        ['ACT', 50, 20, 25],
        ['WATCH', 50, 10, 25],
        ['SCOUT', 50, 4, 25],
      ]);
      expect(v.criteria_results.map((c: any) => [c.id, c.passed])).toEqual([
        ['ordered', true],
        ['gap', true],
        ['act_beats_benchmark', true],
        ['act_lower_bound_beats_benchmark', true],
      ]);
      // The snapshot is the canonical evaluation: its hash is the published one, and it carries the registration's.
      expect(createHash('sha256').update(v.snapshot).digest('hex')).toBe(v.snapshot_sha256);
      expect(JSON.parse(v.snapshot)).toMatchObject({ preregistration_sha256: DOC_SHA, branch: 'confirmed', verdict: 'supported' });
      const leaf = JSON.parse(v.ledger.leaf_payload);
      expect(leaf).toMatchObject({ track: 'verdict', evaluation_sha256: v.snapshot_sha256, preregistration_sha256: DOC_SHA, branch: 'confirmed' });

      await expect(s.t.db('verdicts').update({ branch: 'not_separated' })).rejects.toThrow();
      await expect(s.t.db('verdicts').delete()).rejects.toThrow();

      // The ledger's hourly commit, as its Schedule runs it, commits the verdict's hour.
      const ledger = ledgerActivities.create({ cfg: loadConfig({}), db: s.t.db, now: () => new Date(lockAt + 2 * H) });
      const due = await ledger.sealLedgerHours();
      const hours = due.tracks.find((x) => x.track === 'verdict')!.due;
      expect(hours).toEqual([new Date(Math.floor(lockAt / H) * H).toISOString()]);
      await ledger.commitLedgerHour({ track: 'verdict', hourStart: hours[0]! });
      v = await s.get();
      expect(v.ledger).toMatchObject({ status: 'committed', commit_expected_by: null, commit: { leaf_index: 0, leaf_count: 1, siblings: [] } });
      // One leaf: the root is the leaf's hash.
      expect(v.ledger.commit.merkle_root_hex).toBe(v.ledger.leaf_hash);
      expect(createHash('sha256').update(v.ledger.leaf_payload).digest('hex')).toBe(v.ledger.leaf_hash);
    } finally {
      await s.close();
    }
  });

  it('ordered_but_weak → not_supported: ordered, but ACT is not 1.5 × WATCH', async () => {
    const s = await scenario(tiers({ ACT: 12, WATCH: 10, SCOUT: 4 }));
    try {
      expect(await s.evaluate(E + DAY + H)).toMatchObject({ state: 'locked', branch: 'ordered_but_weak' });
      const v = await s.get();
      expect(v).toMatchObject({ verdict: 'not_supported', branch: 'ordered_but_weak' });
      expect(v.criteria_results.map((c: any) => [c.id, c.passed])).toEqual([
        ['ordered', true],
        ['gap', false],
        ['act_beats_benchmark', true],
        ['act_lower_bound_beats_benchmark', true],
      ]);
    } finally {
      await s.close();
    }
  });

  it('not_separated → not_supported: WATCH beats ACT', async () => {
    const s = await scenario(tiers({ ACT: 8, WATCH: 10, SCOUT: 4 }));
    try {
      await s.evaluate(E + DAY + H);
      const v = await s.get();
      expect(v).toMatchObject({ verdict: 'not_supported', branch: 'not_separated' });
      expect(v.criteria_results[0]).toMatchObject({ id: 'ordered', passed: false });
    } finally {
      await s.close();
    }
  });

  it('insufficient_data → inconclusive: a tier short of 50 crosses at the deadline', async () => {
    const deadline = Date.parse('2027-03-31T00:00:00Z');
    const s = await scenario(async (db) => {
      await insertTierCrosses(db, 'ACT', { n: 50, hits: 20, fromMs: T0 + H, everyMs: 4 * H });
      await insertTierCrosses(db, 'WATCH', { n: 50, hits: 10, fromMs: T0 + H, everyMs: 4 * H });
      await insertTierCrosses(db, 'SCOUT', { n: 49, hits: 4, fromMs: T0 + H, everyMs: 4 * H });
      await insertBenchmark(db, { n: 10_000, hits: 100, fromMs: T0, perHour: 100 });
    });
    try {
      expect(await s.evaluate(deadline)).toMatchObject({ state: 'pending' });
      expect((await s.get()).missing).toEqual([{ kind: 'tier_crosses', tier: 'SCOUT', have: 49, need: 50 }]);
      await s.evaluate(deadline + DAY + H);
      const v = await s.get();
      expect(v).toMatchObject({
        verdict: 'inconclusive',
        branch: 'insufficient_data',
        window_end: new Date(deadline).toISOString(),
        criteria_results: [],
        missing: [],
      });
    } finally {
      await s.close();
    }
  });
});
