import { createLiveTick } from '../../../activities';
import { accuracyActivities } from '../../../activities/accuracy';
import { mintActivities } from '../../../activities/mint';
import { createAlertRuleStore } from '../../../db/alerts/alert-rule-store';
import { createLaunchEventStore } from '../../../db/mint/launch-event-store';
import { createMintReadStore } from '../../../db/mint/mint-read-store';
import { createMintStates } from '../../../db/mint/mint-states';
import { createRunnerNowStore } from '../../../db/mint/runner-now-store';
import type { CreateEvent, LaunchEvent } from '../../../domain/launch/launch-events';
import { runnerGridAge } from '../../../domain/scoring/runner-grid';
import { createMarketSimulator } from '../../../ingest/simulator/market-simulator';
import { createRunnerNowScorer } from '../../../models/mint/runner-now-scorer';
import { createLogger } from '../../../platform/logger';
import { issueTestKey } from '../../support/access-keys';
import { useApi } from '../../support/api-harness';
import { areaContext } from '../../support/area-context';
import { typedApi } from '../../support/typed-api';
import { inChunks } from '../../support/in-chunks';

/**
 * Runner odds from the current price at any age, end to end on a simulated market: the real resolution activity
 * writes the grid rows of a resolved history, the from-now model fits on them, the real live refresh asks it for
 * every live mint, and /api/v1/runners ranks mints past two minutes by odds that start from their price at that
 * refresh (validated against openapi.yaml by the typed client). A runner_5x rule fires on a mint past 120 s, and the
 * published odds are logged once per age band and resolved against the peak after publication.
 */
const now = new Date(Math.floor(Date.now() / 1000) * 1000);
const MIN = 60_000;
const H = { holderThresholds: { signals: 500_000, api: 2_500_000 } };

const { t, api } = useApi({ now: () => now });
const http = typedApi(() => api.url);

describe('runner odds from now', () => {
  it('ranks mints older than two minutes from their current price, fires a runner alert past 120 s, and logs what it published', async () => {
    const sim = createMarketSimulator({ seed: 29, launchesPerSecond: 0.5, graduationShare: 0.08 });
    const events: LaunchEvent[] = [...sim.events(now.getTime() - 35 * MIN, now.getTime())];
    const store = createLaunchEventStore(t.db);
    for (let i = 0; i < events.length; i += 5000) await store.writeBatch(events.slice(i, i + 5000));
    const creates = events.filter((e): e is CreateEvent => e.kind === 'create' && !e.mayhem);

    const ctx = areaContext(t.db, { now: () => now });
    const runnerNowStore = createRunnerNowStore(t.db);
    const scorer = createRunnerNowScorer({
      store: runnerNowStore,
      refitEveryS: 3600,
      corpusLimit: 100_000,
      liveWindowS: ctx.cfg.live.windowS,
      log: createLogger('silent', 'test'),
      now: () => Date.now(),
    });
    const acts = mintActivities.create(ctx, { dexPriceSourceName: 'test' });
    const tick = createLiveTick(ctx, { live: { runnerNow: { scorer, store: runnerNowStore } } });

    // History: mints older than 15 minutes, resolved at a 10-minute horizon by the real activity (grid rows to 5 min).
    const history = creates.filter((c) => c.at.getTime() < now.getTime() - 15 * MIN);
    expect(history.length).toBeGreaterThan(400);
    await inChunks(history, 8, (c) => acts.resolveMint({ mint: c.mint, horizonAt: new Date(c.at.getTime() + 10 * MIN).toISOString() }));
    const perAge = await t.db('runner_observations').groupBy('age_s').orderBy('age_s').select('age_s', t.db.raw('count(*)::int as n'));
    expect(perAge.map((r) => r.age_s)).toEqual([10, 30, 60, 120, 300, 600]);
    for (const r of perAge) expect(r.n).toBeGreaterThanOrEqual(200);
    for (const a of scorer.ages) expect((await scorer.refit(a)).model.status).toBe('live');

    // No mint is scored at 30 s / 60 s: every odds below comes from the live refresh.
    const first = await tick.refreshLiveSnapshot();
    expect(first.tracked).toBeGreaterThan(20);
    const all = (await http.GET('/api/v1/runners', { params: { query: { tier: '2x', min_prob: 0, limit: 100 } } })).data!;
    const old = all.mints.filter((m) => m.age_s > 120);
    expect(old.length).toBeGreaterThan(5);
    expect(all.mints.some((m) => m.age_s < 120)).toBe(true);

    // Each mint's odds start from its own price and age at this refresh, and equal the model's answer for its tape now.
    const reads = createMintStates(t.db, { smartMoney: areaContext(t.db).readPorts.smartMoney() });
    const mintRows = createMintReadStore(t.db);
    for (const [i, m] of all.mints.entries()) {
      expect(m.runner_odds_from).toEqual({ age_s: m.age_s, price_sol: m.price_sol, at: now.toISOString() });
      expect(m.runner_reference_price_sol).toBe(m.price_sol);
      expect(m.grad_prob).toBeNull();
      const { tape } = await reads.scoringView((await mintRows.getMint(m.mint))!, now);
      const expected = scorer.fromNow(tape, now)!;
      expect(m.runner_prob).toBe(expected.odds['2x']);
      expect([m.runner_prob_3x_from_now, m.runner_prob_5x_from_now, m.runner_prob_10x_from_now, m.runner_prob_20x_from_now]).toEqual([
        expected.odds['3x'],
        expected.odds['5x'],
        expected.odds['10x'],
        expected.odds['20x'],
      ]);
      const tiers = [
        m.runner_prob_2x_from_now!,
        m.runner_prob_3x_from_now!,
        m.runner_prob_5x_from_now!,
        m.runner_prob_10x_from_now!,
        m.runner_prob_20x_from_now!,
      ];
      for (let j = 1; j < tiers.length; j++) expect(tiers[j]).toBeLessThanOrEqual(tiers[j - 1]!);
      if (i > 0) expect(m.runner_prob).toBeLessThanOrEqual(all.mints[i - 1]!.runner_prob);
    }
    // The odds are not one number for everyone.
    expect(new Set(old.map((m) => m.runner_prob)).size).toBeGreaterThan(1);

    // Logged once per mint and age band, with the price and age they start from.
    const logged = await t.db('runner_odds_published').select();
    for (const m of all.mints) {
      const l = logged.find((x) => x.mint === m.mint)!;
      expect(l).toMatchObject({ grid_age_s: runnerGridAge(m.age_s), price_sol: m.price_sol, resolved_at: null });
      expect(l.odds['2x']).toBe(m.runner_prob);
      expect(l.age_s).toBeCloseTo(m.age_s, 3);
    }

    // A runner_5x rule at a threshold an old mint meets fires for it at the next refresh, past 120 s.
    const target = [...old].sort((a, b) => b.runner_prob_5x_from_now! - a.runner_prob_5x_from_now!)[0]!;
    const pro = await issueTestKey(t.db, 'pro');
    const rule = await createAlertRuleStore(t.db, H).add(pro.id, 'runner_5x', { threshold: target.runner_prob_5x_from_now!, wallet: null }, now);
    if (!rule.ok) throw new Error(rule.reason);
    await tick.refreshLiveSnapshot();
    const fires = await t.db('alert_fires').where({ rule_id: rule.rule.id });
    expect(fires.map((f) => f.mint)).toContain(target.mint);
    expect(target.age_s).toBeGreaterThan(120);
    // The second refresh is in the same band: nothing new is logged.
    expect(Number((await t.db('runner_odds_published').count('* as n').first())!.n)).toBe(logged.length);

    // Resolution measures the logged odds from their own price: a later trade at twice that price is a 2x.
    const { tape } = await reads.scoringView((await mintRows.getMint(target.mint))!, now);
    const later = events.find((e) => e.kind === 'trade' && e.mint === target.mint)!;
    await store.writeBatch([
      { ...later, signature: 'later-2x', at: new Date(now.getTime() + 10_000), vSolLamports: 2 * tape.vSol, vTokensRaw: tape.vTokens } as LaunchEvent,
    ]);
    // Resolved when its (short) horizon has passed, as the lifecycle does.
    const horizonAt = new Date(now.getTime() + MIN);
    await mintActivities
      .create(areaContext(t.db, { now: () => new Date(horizonAt.getTime() + 1000) }))
      .resolveMint({ mint: target.mint, horizonAt: horizonAt.toISOString() });
    const after = await t.db('runner_odds_published').where({ mint: target.mint }).first();
    expect(after).toMatchObject({ label_version: 'v1', resolved_at: expect.any(Date) });
    expect(after.peak_mult_24h).toBeCloseTo(2, 9);

    // /api/accuracy scores it from the price it was published at, in its own age band; nothing unresolved counts.
    const afterwards = new Date(now.getTime() + 2 * MIN);
    await accuracyActivities.create(areaContext(t.db, { now: () => afterwards })).recomputeAccuracy();
    const acc = (await http.GET('/api/accuracy')).data!;
    const bands = acc.runner_from_now!.bands;
    expect(bands.every((b) => b.age_band_s === after.grid_age_s && b.n === 1 && b.model_version.startsWith('runner-now-v1/z'))).toBe(true);
    expect(bands.map((b) => [b.target, b.positives])).toEqual([
      ['2x', 1],
      ['3x', 0],
      ['5x', 0],
      ['10x', 0],
      ['20x', 0],
    ]);
    expect(bands[0]!.mean_predicted).toBe(after.odds['2x']);
    // It scores nothing and resolves hundreds of mints through the real activities: tens of seconds on a busy machine.
  }, 240_000);
});
