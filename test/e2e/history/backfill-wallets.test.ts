import { historyActivities } from '../../../activities/history';
import { createModelFitStore } from '../../../db/scoring/model-fit-store';
import { createBackfillStore } from '../../../db/history/backfill-store';
import { createCorpusStore } from '../../../db/mint/corpus-store';
import type { CreateEvent, LaunchEvent, TradeEvent } from '../../../domain/launch/launch-events';
import { MintTape } from '../../../domain/launch/mint-tape';
import { createMarketSimulator } from '../../../ingest/simulator/market-simulator';
import { createKnnMintScorer } from '../../../models/mint/knn-mint-scorer';
import { createLogger } from '../../../platform/logger';
import { call, useApi } from '../../support/api-harness';
import { areaContext } from '../../support/area-context';
import { expectConforms } from '../../support/contract';
import { typedApi } from '../../support/typed-api';
import { firstBackfillPage } from '../../support/backfill-page';

/**
 * What a folded backfill feeds besides the corpus: the backfilled mints' outcomes reach the live wallet index (through
 * the wallet area's idempotent writer) and the creator records at once, without a `wallets:rebuild`, and are read
 * through HTTP; the models fitted on a corpus holding them tag their versions `+backfill`. None of it is a forward
 * accuracy figure.
 */
const { t, api } = useApi({ env: { WALLETS_READ_CACHE_MS: '0' } });
const http = typedApi(() => api.url);
const START = Date.parse('2026-11-21T00:00:00Z');
const END = START + 15 * 60_000;
const HORIZON_S = 300;

let events: LaunchEvent[];
let folded: string[];
const fold = () =>
  historyActivities.create(areaContext(t.db), { horizonS: HORIZON_S }).foldBackfilledChunk({ chunkId: 'chunk-w', fromMs: START, toMs: END, rangeToMs: END });

beforeAll(async () => {
  events = [...createMarketSimulator({ seed: 11, launchesPerSecond: 0.3, graduationShare: 0.2, mayhemShare: 0 }).events(START, END)].map((e) => ({
    ...e,
    source: 'backfill',
  }));
  const page = firstBackfillPage('chunk-w');

  await createBackfillStore(t.db).storePage(page, events, 0, new Date(), '2026-11-21');
  folded = events.flatMap((e) => (e.kind === 'create' && e.at.getTime() < END - HORIZON_S * 1000 ? [e.mint] : []));
}, 120_000);

/** Each buyer's launches and graduations straight from trades and the folded labels (buys up to each horizon, creators left out). */
async function countsFromTrades(): Promise<Map<string, { wallet: string; total: number; graduated: number }>> {
  const r = await t.db.raw(
    `SELECT t.trader AS wallet, count(DISTINCT t.mint)::int AS total, count(DISTINCT t.mint) FILTER (WHERE h.graduated)::int AS graduated
     FROM trades t JOIN mints m ON m.mint = t.mint JOIN history_observations h ON h.mint = t.mint AND h.age_bucket = 60
     WHERE t.is_buy AND t.trader <> m.creator AND t.at <= m.created_at + make_interval(secs => ?)
     GROUP BY 1`,
    [HORIZON_S],
  );
  return new Map((r.rows as { wallet: string; total: number; graduated: number }[]).map((x) => [x.wallet, x]));
}

describe('backfilled mints beyond the corpus', () => {
  it('reach the live wallet index and the creator records when folded, once however often the fold runs', async () => {
    const before = await countsFromTrades();
    expect(before.size).toBe(0);
    const r = await fold();
    expect(r.mints).toBe(folded.length);
    expect(folded.length).toBeGreaterThan(100);
    expect(r.walletBuyers).toBeGreaterThan(100);

    const expected = await countsFromTrades();
    const [top] = [...expected.values()].sort((a, b) => b.total - a.total || (a.wallet < b.wallet ? -1 : 1));
    expect(top!.total).toBeGreaterThan(1);
    const lookup = async () => {
      const res = await http.GET('/api/v1/wallet/{address}', { params: { path: { address: top!.wallet } } });
      expect(res.response.status).toBe(200);
      return res.data!;
    };
    const first = await lookup();
    expect(first).toMatchObject({ found: true, wallet: top!.wallet, count: 1 });
    expect(first.wallets[0]).toMatchObject({ total: top!.total, graduations: top!.graduated });
    // Every buyer of a folded mint has its record, equal to its trades and labels.
    const readRecords = async () =>
      (await t.db('wallet_records').select('wallet', 'total', 'graduated')).map((x) => `${x.wallet}:${x.total}:${x.graduated}`).sort();
    const records = await readRecords();
    expect(records).toEqual([...expected.values()].map((x) => `${x.wallet}:${x.total}:${x.graduated}`).sort());

    // Creators' records count their folded launches as resolved.
    const creators = await t.db('creators').sum({ n: 'n_resolved' }).first();
    expect(Number(creators!.n)).toBe(folded.length);

    // The fold again (a retried activity): nothing moves.
    await fold();
    expect(await lookup()).toEqual(first);
    expect(await readRecords()).toEqual(records);
    expect(Number((await t.db('creators').sum({ n: 'n_resolved' }).first())!.n)).toBe(folded.length);

    // History, not predictions: counted once in the corpus, never in forward accuracy.
    const health = await call(`${api.url}/api/predictor/health`);
    expectConforms('get', '/api/predictor/health', 200, health.body);
    expect(health.body.corpus).toMatchObject({ labelled_mints: folded.length, backfilled_share: 1 });
    expect(Number((await t.db('prediction_outcomes').count({ n: '*' }).first())!.n)).toBe(0);
  }, 120_000);

  it('tag the versions of models fitted on them +backfill, which the scores they give carry', async () => {
    const scorer = createKnnMintScorer({
      corpusStore: createCorpusStore(t.db),
      modelFitStore: createModelFitStore(t.db),
      refitEveryS: 600,
      corpusLimit: 100_000,
      log: createLogger('warn', 'test'),
      now: () => Date.now(),
    });
    const m = await scorer.refit(60);
    expect(m.corpusRows).toBe(folded.length);
    // A launch after the range, scored at 60 s as the lifecycle scores it.
    const create = events.find((e): e is CreateEvent => e.kind === 'create' && e.at.getTime() >= END - 120_000)!;
    const trades = events.filter((e): e is TradeEvent => e.kind === 'trade' && e.mint === create.mint && e.at.getTime() <= create.at.getTime() + 60_000);
    const tape = new MintTape(create);
    trades.forEach((x) => tape.apply(x));
    const s = await scorer.score({ create, tradesSoFar: trades, tape, bucket: 60, ageS: 60, freshAmongFirstBuyers: 0 });
    for (const v of [...Object.values(s.modelVersions), s.calibration.model_version]) expect(v).toMatch(/@60:\d+:[^+]+\+backfill$/);

    // /api/predictor/health lists the recorded fits under their tagged versions.
    const health = await call(`${api.url}/api/predictor/health`);
    expectConforms('get', '/api/predictor/health', 200, health.body);
    const at60 = (health.body.predictors as { age_bucket: number; model_version: string | null }[]).filter((p) => p.age_bucket === 60);
    expect(at60).toHaveLength(4);
    for (const p of at60) expect(p.model_version).toMatch(/\+backfill$/);
  }, 120_000);
});
