import { createAlertRuleStore } from '../../../db/alerts/alert-rule-store';
import { issueTestKey } from '../../support/access-keys';
import { alertMarket, simulatedScore } from '../../support/alert-market';
import { createTestDatabase } from '../../support/test-db';

/**
 * The fire cap: a refresh records at most ALERTS_MAX_FIRES_PER_REFRESH fires (a mint's fires are never split) and
 * leaves the other mints for the next refreshes, which take them first: fires are delayed, none is lost.
 */
const SEED = 11;
const START = Math.floor(Date.now() / 1000) * 1000 - 6 * 60_000;
const END = START + 3 * 60_000;
let t: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

describe('the fire cap per refresh', () => {
  it('records one mint per refresh past the cap and, refreshes later, every fire', async () => {
    const market = alertMarket(t.db, { seed: SEED, start: START, minutes: 3, env: { ALERTS_MAX_FIRES_PER_REFRESH: '100' } });
    await market.seed(market.creates[3]!.creator);
    const pro = await issueTestKey(t.db, 'pro');
    const rules = createAlertRuleStore(t.db, { holderThresholds: { signals: 500_000, api: 2_500_000 } });
    const ids: number[] = [];
    for (let i = 0; i < 150; i++) {
      const r = await rules.add(pro.id, 'grad_prob', { threshold: 0.4, wallet: null }, new Date(START));
      if (!r.ok) throw new Error(r.reason);
      ids.push(r.rule.id);
    }
    // Past the last launch, refreshes go on until the backlog is drained.
    await market.run(END + 60_000);

    const fires = await t.db('alert_fires').whereIn('rule_id', ids).select('mint', 'fired_at');
    const byRefresh = new Map<number, Set<string>>();
    for (const f of fires) byRefresh.set(f.fired_at.getTime(), (byRefresh.get(f.fired_at.getTime()) ?? new Set()).add(f.mint));
    // 150 fires per mint, over the cap of 100: never a second mint in one refresh.
    expect([...byRefresh.values()].map((m) => m.size)).toEqual([...byRefresh.values()].map(() => 1));
    // Every mint scored 0.4 or more at 30 or 60 s while live fired each rule, once.
    const expected = market.creates
      .filter((c) => !c.mayhem && simulatedScore(SEED, c.mint).gradProb >= 0.5 && c.at.getTime() + 62_000 <= END)
      .map((c) => c.mint);
    expect(expected.length).toBeGreaterThan(3);
    const firedMints = new Set(fires.map((f) => f.mint));
    expect(expected.filter((m) => !firedMints.has(m))).toEqual([]);
    expect(fires.length).toBe(firedMints.size * ids.length);
  }, 300_000);
});
