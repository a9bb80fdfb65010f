import { createLiveTick } from '../../../activities';
import { mintActivities } from '../../../activities/mint';
import { areaContext } from '../../support/area-context';
import { createKnnMintScorer } from '../../../models/mint/knn-mint-scorer';
import { createModelFitStore } from '../../../db/scoring/model-fit-store';
import { createPriceStore } from '../../../db/market/price-store';
import { createCorpusStore } from '../../../db/mint/corpus-store';
import { createLaunchEventStore } from '../../../db/mint/launch-event-store';
import type { CreateEvent, LaunchEvent } from '../../../domain/launch/launch-events';
import { createMarketSimulator } from '../../../ingest/simulator/market-simulator';
import { createLogger } from '../../../platform/logger';
import { call, useApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { typedApi } from '../../support/typed-api';
import { inChunks } from '../../support/in-chunks';

/**
 * The enriched fields end to end on a simulated market: the real scoring and resolution activities build a
 * resolved history, the real scorer refits on it, live mints are scored, the real projector writes the
 * snapshot, and /api/v1/runners, /api/v1/probe, /api/live answer from it, validated against openapi.yaml.
 */
const now = new Date(Math.floor(Date.now() / 1000) * 1000);
const MIN = 60_000;

const { t, api } = useApi({ now: () => now });
const http = typedApi(() => api.url);

describe('runners, probe and live carry the models', () => {
  it('answers 503 on runners before the projector has built a snapshot', async () => {
    const r = await http.GET('/api/v1/runners');
    expect(r.response.status).toBe(503);
  });

  it('ranks live mints by from-now runner odds that equal the logged predictions', async () => {
    const sim = createMarketSimulator({ seed: 17, launchesPerSecond: 0.5, graduationShare: 0.08 });
    const events: LaunchEvent[] = [...sim.events(now.getTime() - 30 * MIN, now.getTime())];
    const store = createLaunchEventStore(t.db);
    for (let i = 0; i < events.length; i += 5000) await store.writeBatch(events.slice(i, i + 5000));
    await createPriceStore(t.db).recordQuote({
      symbol: 'SOL',
      mint: 'So11111111111111111111111111111111111111112',
      usd: 80,
      source: 'jupiter-price-v3',
      fetchedAt: now,
    });

    const scorer = createKnnMintScorer({
      corpusStore: createCorpusStore(t.db),
      modelFitStore: createModelFitStore(t.db),
      refitEveryS: 3600,
      corpusLimit: 100_000,
      log: createLogger('silent', 'test'),
      now: () => Date.now(),
    });
    const acts = mintActivities.create(areaContext(t.db), { mintScorer: scorer, dexPriceSourceName: 'test' });
    const creates = events.filter((e): e is CreateEvent => e.kind === 'create' && !e.mayhem);
    const score = (c: CreateEvent, bucket: number) => acts.scoreMint({ mint: c.mint, bucket, asOf: new Date(c.at.getTime() + bucket * 1000).toISOString() });

    // History: mints older than 15 minutes, scored at 30 s and 60 s, resolved at a 10-minute horizon.
    const history = creates.filter((c) => c.at.getTime() < now.getTime() - 15 * MIN);
    expect(history.length).toBeGreaterThan(300);
    await inChunks(history, 8, async (c) => {
      await score(c, 30);
      await score(c, 60);
      await acts.resolveMint({ mint: c.mint, horizonAt: new Date(c.at.getTime() + 10 * MIN).toISOString() });
    });
    await scorer.refit(30);
    await scorer.refit(60);

    // Live: mints young enough to be shown with their score.
    const live = creates.filter((c) => c.at.getTime() >= now.getTime() - 110_000 && c.at.getTime() <= now.getTime() - 30_000);
    expect(live.length).toBeGreaterThan(10);
    await inChunks(live, 8, async (c) => {
      await score(c, 30);
      if (c.at.getTime() + 60_000 <= now.getTime()) await score(c, 60);
    });
    await createLiveTick(areaContext(t.db, { now: () => now })).refreshLiveSnapshot();

    const latest = async (mint: string) => t.db('predictions').where({ mint }).orderBy('age_bucket', 'desc').first();

    const all = (await http.GET('/api/v1/runners', { params: { query: { tier: '2x', min_prob: 0, limit: 100 } } })).data!;
    expect(all).toMatchObject({ tier: '2x', min_prob: 0 });
    expect(all.count).toBeGreaterThan(5);
    for (const [i, m] of all.mints.entries()) {
      const p = await latest(m.mint);
      expect(m.runner_prob).toBe(p.runner_odds['2x']);
      expect(m.runner_prob).toBe(m.runner_prob_2x_from_now);
      expect(m.runner_reference_price_sol).toBe(p.price_sol);
      expect(m.runner_prob_5x_from_now).toBeLessThanOrEqual(m.runner_prob_2x_from_now!);
      if (i > 0) expect(m.runner_prob).toBeLessThanOrEqual(all.mints[i - 1]!.runner_prob);
    }

    const fives = (await http.GET('/api/v1/runners')).data!;
    expect(fives).toMatchObject({ tier: '5x', min_prob: 0.05 });
    expect(fives.mints.every((m) => m.runner_prob >= 0.05 && m.runner_prob === m.runner_prob_5x_from_now)).toBe(true);
    const strict = await http.GET('/api/v1/runners', { params: { query: { tier: '2x', min_prob: 1 } } });
    expect(strict.data!.mints).toEqual([]); // calibrated odds never reach 1

    // tier=7x is input the types forbid: raw HTTP.
    const bad = await call(`${api.url}/api/v1/runners?tier=7x&limit=101`);
    expect(bad.status).toBe(422);
    expectConforms('get', '/api/v1/runners', 422, bad.body);
    expect(bad.body.detail.map((d: { loc: string[] }) => d.loc.join('.')).sort()).toEqual(['query.limit', 'query.tier']);

    // Probe: every model field equals the logged prediction; the creator record counts its launches known now and, beside, the resolved ones.
    const mint = all.mints[0]!.mint;
    const probe = await http.GET('/api/v1/probe/{mint}', { params: { path: { mint } } });
    expect(probe.response.status).toBe(200);
    // Flat, without the address (it is the path parameter): what the published clients read.
    expect(probe.data).not.toHaveProperty('mint');
    const p = await latest(mint);
    expect(probe.data).toMatchObject({
      grad_prob: p.grad_prob,
      rug_prob: p.rug_prob,
      runner_prob_10x_from_now: p.runner_odds['10x'],
      post_grad_survival_prob: null,
      post_grad_survival_status: 'suspended',
    });
    expect(p.rug_prob).not.toBeNull();
    expect(Object.keys(p.model_versions).sort()).toEqual(['grad_prob', 'post_grad_survival', 'rug_prob', 'runner_prob']);
    expect(p.context).toMatchObject({ creator: { n_launches: expect.any(Number) }, rug_heuristic: expect.any(Array), signals: { bot: expect.any(Object) } });
    const resolved = await t.db('mints as m').join('mint_outcomes as o', 'o.mint', 'm.mint').where('m.creator', probe.data!.creator).count('* as n').first();
    expect(probe.data!.n_launches_resolved).toBe(Number(resolved!.n));
    // n_launches is every launch of the creator known now, open ones (this live mint first of all) included.
    const known = await t.db('mints').where({ creator: probe.data!.creator, mayhem: false }).count('* as n').first();
    expect(probe.data!.n_launches).toBe(Number(known!.n));
    expect(probe.data!.n_launches).toBeGreaterThanOrEqual(probe.data!.n_launches_resolved + 1);

    const keyed = (await http.GET('/api/v1/live', { params: { query: { limit: 200 } } })).data!;
    const scored = keyed.mints.filter((m) => m.grad_prob !== null);
    expect(scored.length).toBeGreaterThan(5);
    expect(scored.every((m) => m.rug_prob !== null && m.runner_prob_3x_from_now !== null)).toBe(true);
    expect(keyed.withheld_fields).toBeUndefined();

    // The public list: the same mints in real time, newest launch first, with what a key pays for withheld.
    const pub = (await http.GET('/api/live')).data!;
    expect(pub.mints.map((m) => m.mint).sort()).toEqual(keyed.mints.map((m) => m.mint).sort());
    expect(pub.mints.map((m) => m.created_at)).toEqual(
      pub.mints
        .map((m) => m.created_at)
        .sort()
        .reverse(),
    );
    expect(pub.withheld_fields).toEqual(expect.arrayContaining(['grad_prob', 'runner_prob_5x_from_now', 'rug_prob', 'top_buyers', 'smart_money_in']));
    for (const m of pub.mints) {
      for (const f of pub.withheld_fields!) expect([m.mint, f, (m as Record<string, unknown>)[f]]).toEqual([m.mint, f, f === 'top_buyers' ? [] : null]);
    }
    const byMint = new Map(keyed.mints.map((m) => [m.mint, m]));
    expect(pub.mints.every((m) => m.market_cap_sol === byMint.get(m.mint)!.market_cap_sol && m.n_launches === byMint.get(m.mint)!.n_launches)).toBe(true);
    expect(pub.mints.some((m) => m.signals.bot.bot_trade_share !== null)).toBe(true);
    // It scores and resolves hundreds of mints through the real activities: tens of seconds on a busy machine.
  }, 180_000);
});
