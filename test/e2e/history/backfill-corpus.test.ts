import { historyActivities } from '../../../activities/history';
import { createBackfillStore } from '../../../db/history/backfill-store';
import type { LaunchEvent } from '../../../domain/launch/launch-events';
import { createMarketSimulator } from '../../../ingest/simulator/market-simulator';
import { useApi } from '../../support/api-harness';
import { areaContext } from '../../support/area-context';
import { typedApi } from '../../support/typed-api';
import { firstBackfillPage } from '../../support/backfill-page';

/**
 * Backfilled launches become labelled history: the chunk's mints whose whole label horizon the range covers are
 * folded into `history_observations` (source `backfill`) at both scoring ages, the live feed's own mints are left to
 * their predictions, and /api/scope and /api/predictor/health say what share of the corpus is backfilled and from when.
 */
const { t, api } = useApi();
const START = Date.parse('2026-11-20T00:00:00Z');
const END = START + 15 * 60_000;
const HORIZON_S = 300;

it('folds backfilled mints a horizon before the range end into history, once, and reports the share', async () => {
  const events = [...createMarketSimulator({ seed: 7, launchesPerSecond: 0.2, graduationShare: 0.2, mayhemShare: 0 }).events(START, END)];
  // Mints of the first minute came from the live feed (predicted by this deployment, not history); the rest from the chain.
  const liveMints = new Set(events.filter((e) => e.kind === 'create' && e.at.getTime() < START + 60_000).map((e) => e.mint));
  const tagged: LaunchEvent[] = events.map((e) => ({ ...e, source: liveMints.has(e.mint) ? 'simulator' : 'backfill' }));
  const store = createBackfillStore(t.db);
  const row = firstBackfillPage('chunk-a');

  await store.storePage(row, tagged, 0, new Date(), '2026-11-20');

  const acts = historyActivities.create(areaContext(t.db), { horizonS: HORIZON_S });
  const fold = () => acts.foldBackfilledChunk({ chunkId: 'chunk-a', fromMs: START, toMs: END, rangeToMs: END });
  const r = await fold();
  const creates = tagged.filter((e) => e.kind === 'create');
  const expected = creates.filter((c) => c.source === 'backfill' && c.at.getTime() < END - HORIZON_S * 1000).map((c) => c.mint);
  expect(expected.length).toBeGreaterThan(20);
  expect(r.mints).toBe(expected.length);
  const rows = await t.db('history_observations').select('mint', 'age_bucket', 'source', 'run_id');
  expect(new Set(rows.map((x) => x.mint))).toEqual(new Set(expected));
  expect(rows.length).toBe(expected.length * 2);
  expect(new Set(rows.map((x) => `${x.source}:${x.run_id}:${x.age_bucket}`))).toEqual(new Set(['backfill:chunk-a:30', 'backfill:chunk-a:60']));
  // Folded again (a retried activity): nothing new.
  expect((await fold()).mints).toBe(expected.length);
  expect(Number((await t.db('history_observations').count({ n: '*' }).first())!.n)).toBe(rows.length);

  const http = typedApi(api.url);
  const scope = await http.GET('/api/scope');
  expect(scope.response.status).toBe(200);
  const corpus = scope.data!.corpus;
  expect(corpus.history).toEqual([expect.objectContaining({ source: 'backfill', mints: expected.length })]);
  expect(corpus.backfilled_share).toBe(1);
  const health = await http.GET('/api/predictor/health');
  expect(health.response.status).toBe(200);
  const firstCreated = creates.find((c) => c.mint === expected[0])!.at.toISOString();
  expect(health.data!.corpus).toEqual({
    labelled_mints: expected.length,
    backfilled_share: 1,
    backfill_oldest_created_at: firstCreated,
    backfill_newest_created_at: expect.any(String),
    backfill_on_start: null,
  });
}, 120_000);
