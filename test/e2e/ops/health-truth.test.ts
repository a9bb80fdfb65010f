import { createModelFitStore, type ModelFit } from '../../../db/scoring/model-fit-store';
import { createPriceStore } from '../../../db/market/price-store';
import { createLiveStore, LIVE_SNAPSHOT } from '../../../db/live/live-store';
import { createStatsStore } from '../../../db/mint/stats-store';
import { createWatchdogStore } from '../../../db/ops/watchdog-store';
import { WSOL_MINT } from '../../../domain/market/native-coin';
import { useApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { typedApi } from '../../support/typed-api';

/**
 * /api/health is `ok` only when everything it publishes is there and fresh, and `degraded`, with the reason in
 * words, whenever a published capability is withheld or stale: no SOL/USD price (composite signals withheld), a
 * live list older than a few refresh intervals, a warming model, a launch feed down.
 */
const now = new Date('2026-11-23T10:00:00Z');
const ago = (s: number) => new Date(now.getTime() - s * 1000);
const { t, api } = useApi({ now: () => now });
const http = typedApi(() => api.url);

const health = async () => {
  const r = await http.GET('/api/health');
  expect(r.response.status).toBe(200);
  expectConforms('get', '/api/health', 200, r.data);
  return r.data!;
};
const codes = async () => (await health()).reasons.map((r) => r.code);

const fit = (predictor: ModelFit['predictor'], status: ModelFit['status']): ModelFit => ({
  predictor,
  ageBucket: 60,
  version: `${predictor}-test+synthetic`,
  metric: null,
  status,
  samplesTotal: status === 'live' ? 500 : 12,
  samplesPositive: 10,
  minSamples: 200,
  calibrationMethod: 'isotonic',
  calibrationSamples: 100,
  fittedAt: ago(60),
  fitMs: 5,
  backtest: null,
});
const price = (fetchedAt: Date) => createPriceStore(t.db).recordQuote({ symbol: 'SOL', mint: WSOL_MINT, usd: 150, source: 'simulated-price', fetchedAt });
/** Writes a live snapshot and waits out the API's 500 ms version check, so the next read sees it. */
const live = async (builtAt: Date) => {
  await createLiveStore(t.db).writeSnapshot(
    LIVE_SNAPSHOT,
    JSON.stringify({ generated_at: builtAt.toISOString(), refresh_interval_s: 2, delay_s: 0, total_tracked: 0, count: 0, mints: [] }),
    0,
    builtAt,
  );
  await new Promise((r) => setTimeout(r, 600));
};
const feed = (connected: boolean, reportedAt: Date) => createStatsStore(t.db).recordFeedStats('simulator', { name: 'simulator', connected }, reportedAt);

/** Everything published and fresh. */
async function allWell() {
  await t.db('native_coin_prices').del();
  await price(ago(30));
  await live(ago(1));
  await t.db('model_fits').del();
  await createModelFitStore(t.db).recordFits([fit('grad_prob', 'live'), fit('rug_prob', 'live')]);
  await t.db('ingest_feed_stats').del();
  await feed(true, ago(5));
}

beforeAll(async () => {
  const obs = {
    disk: { path: '/', totalBytes: 1000, freeBytes: 500 },
    memory: { totalBytes: 1000, availableBytes: 500 },
    stuck: { count: 0, byType: {} },
    staleHeartbeats: [],
  };
  await createWatchdogStore(t.db).recordTick('health-truth', ago(10), obs, []);
});
beforeEach(allWell);

it('is ok, with no reasons, only when everything published is there and fresh', async () => {
  const h = await health();
  expect(h).toMatchObject({ status: 'ok', reasons: [] });
  expect(h.dependencies.live_projector).toMatchObject({ state: 'fresh', stale_after_s: 10 });
});

it('is degraded without a SOL/USD price: composite signals are withheld', async () => {
  await t.db('native_coin_prices').del();
  const h = await health();
  expect(h.status).toBe('degraded');
  expect(h.reasons).toEqual([{ code: 'native_price_unknown', message: expect.stringMatching(/no SOL\/USD price.*composite signals are withheld/) }]);
});

it('is degraded with a stale SOL/USD price', async () => {
  await t.db('native_coin_prices').del();
  await price(ago(3600));
  expect(await codes()).toEqual(['native_price_stale']);
  expect((await health()).status).toBe('degraded');
});

it('is degraded once the live list is older than five refresh intervals, not minutes later', async () => {
  await live(ago(12));
  const h = await health();
  expect(h.status).toBe('degraded');
  expect(h.reasons).toEqual([{ code: 'live_list_stale', message: expect.stringMatching(/the live list is 12 s old \(allowed 10 s\)/) }]);
});

it('is degraded while a model is warming', async () => {
  await createModelFitStore(t.db).recordFits([fit('rug_prob', 'warming')]);
  const h = await health();
  expect(h.status).toBe('degraded');
  expect(h.reasons).toEqual([{ code: 'model_warming:rug_prob@60', message: expect.stringMatching(/rug_prob model at 60 s is warming \(12 of 200/) }]);
});

it('is degraded before any model is fitted', async () => {
  await t.db('model_fits').del();
  expect(await codes()).toEqual(['models_not_fitted']);
});

it('is degraded when a feed is disconnected, has stopped reporting, or none has reported', async () => {
  await feed(false, ago(5));
  expect(await codes()).toEqual(['feed_down:simulator']);
  await feed(true, ago(120));
  expect((await health()).reasons).toEqual([{ code: 'feed_down:simulator', message: expect.stringMatching(/last reported 120 s ago/) }]);
  await t.db('ingest_feed_stats').del();
  expect(await codes()).toEqual(['no_feed']);
  expect((await health()).status).toBe('degraded');
});

it('names the active inputs and whether any is simulated, in /api/health and /api/scope', async () => {
  const inputs = (await health()).inputs;
  // The test API runs with the defaults outside production: the simulator feed and its seeded inputs.
  expect(inputs).toMatchObject({ simulated: true, demo_mode: false, feeds: [{ name: 'simulator', simulated: true }], seeded: { smart_wallets: true } });
  const scope = await http.GET('/api/scope');
  expect(scope.data!.inputs).toEqual(inputs);
});

it('after a worker restart marks the live list stale, however young, until the projector writes a fresh one', async () => {
  await live(ago(1));
  await createLiveStore(t.db).markPreRestart();
  await new Promise((r) => setTimeout(r, 600));
  const h = await health();
  expect(h.status).toBe('degraded');
  expect(h.reasons).toEqual([{ code: 'live_list_stale', message: expect.stringMatching(/built before the worker restarted/) }]);
  const list = await http.GET('/api/live');
  expect(list.response.status).toBe(200);
  expect(list.data).toMatchObject({ stale: true, age_s: 1 });

  await live(ago(1)); // the first refresh of the new run
  expect(await health()).toMatchObject({ status: 'ok', reasons: [] });
  expect((await http.GET('/api/live')).data!.stale).toBeUndefined();
});
