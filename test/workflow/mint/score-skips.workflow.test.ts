import { createCorpusStore } from '../../../db/mint/corpus-store';
import { createLaunchEventStore } from '../../../db/mint/launch-event-store';
import type { CreateEvent, LaunchEvent, TradeEvent } from '../../../domain/mint/launch-events';
import { LABEL_VERSION, RUG_LABEL_VERSION } from '../../../domain/mint/outcome-labels';
import { MIN_GRAD_CORPUS } from '../../../domain/scoring/grad-prob-model';
import { createIngestPipeline } from '../../../ingest/pipeline/ingest-pipeline';
import { createLogger } from '../../../platform/logger';
import { createMintLifecycleStarter } from '../../../workflows/mint/mint-lifecycle-starter';
import { mintWorkflowId, type LifecycleState, type LifecycleTiming } from '../../../workflows/mint/mint-lifecycle-contract';
import { call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { createTestDatabase } from '../../support/test-db';
import { startWorker, uniqueId } from '../../support/worker-harness';

/** Scores at 1 s and 2 s (buckets 30 and 60), resolution at 4 s. */
const TIMING: LifecycleTiming = {
  scores: [
    { bucket: 30, afterS: 1 },
    { bucket: 60, afterS: 2 },
  ],
  maxLatenessS: 30,
  resolveAfterS: 4,
  checkpointsS: [],
  checkpointRetry: { initialIntervalS: 0.1, maximumAttempts: 1 },
};

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;
let api: Awaited<ReturnType<typeof startApi>>;
let pipeline: ReturnType<typeof createIngestPipeline>;

beforeAll(async () => {
  t = await createTestDatabase();
  // The production warming line: these mints meet an empty corpus. No checkpoints are taken, so no price source.
  w = await startWorker(t.db, { env: { MODEL_MIN_SERVING_CORPUS: String(MIN_GRAD_CORPUS) } });
  api = await startApi(t.db);
  pipeline = createIngestPipeline({
    store: createLaunchEventStore(t.db),
    starter: createMintLifecycleStarter(w.client, w.taskQueue, TIMING),
    log: createLogger('silent', 'ingest-test'),
    now: () => new Date(),
  });
});
afterAll(async () => {
  await api.close();
  await w.stop();
  await t.drop();
});

const b58 = (prefix: string, len: number) => (prefix + '1'.repeat(len)).slice(0, len).replace(/[0OIl]/g, 'x');
const addr = (tag: string) => b58(uniqueId(tag).replace(/[^1-9A-HJ-NP-Za-km-z]/g, 'z'), 44);
const sig = () => b58(uniqueId('sig'), 88);

function launch() {
  const mint = addr('mint');
  const at = new Date();
  const create: CreateEvent = {
    kind: 'create',
    signature: sig(),
    ordinal: 0,
    slot: 1000,
    at,
    source: 'test',
    mint,
    name: 'Test',
    symbol: 'TST',
    uri: 'https://example.invalid/t.json',
    bondingCurve: addr('curve'),
    creator: addr('creator'),
    mayhem: false,
    vSolLamports: 30_000_000_000,
    vTokensRaw: 1_073_000_000_000_000,
  };
  const buy = (afterMs: number, sol: number): TradeEvent => {
    const vTok = Math.round((create.vSolLamports * create.vTokensRaw) / (create.vSolLamports + sol));
    return {
      kind: 'trade',
      signature: sig(),
      ordinal: 0,
      slot: 1001,
      at: new Date(at.getTime() + afterMs),
      source: 'test',
      mint,
      trader: addr('buyer'),
      isBuy: true,
      solLamports: sol,
      tokensRaw: create.vTokensRaw - vTok,
      vSolLamports: create.vSolLamports + sol,
      vTokensRaw: vTok,
    };
  };
  return { mint, create, buy };
}

const result = (mint: string): Promise<LifecycleState> => w.client.workflow.getHandle(mintWorkflowId(mint)).result();

describe('scoring moments that log no prediction', () => {
  it('skips every score at or after the curve completed, with the reason, and logs no prediction', async () => {
    const { mint, create, buy } = launch();
    const events: LaunchEvent[] = [
      create,
      buy(100, 85_000_000_000),
      // Completed 0.5 s after creation: both scoring moments (1 s and 2 s) come after it.
      { kind: 'complete', signature: sig(), ordinal: 0, slot: 1002, at: new Date(create.at.getTime() + 500), source: 'test', mint },
    ];
    await pipeline.handle(events);
    const state = await result(mint);
    expect(state.scores).toEqual([
      { bucket: 30, status: 'skipped', reason: 'graduated', gradProb: null, predictionId: null },
      { bucket: 60, status: 'skipped', reason: 'graduated', gradProb: null, predictionId: null },
    ]);
    expect(state.outcome).toMatchObject({ graduated: true });
    expect(await t.db('predictions').where({ mint })).toEqual([]);
    const skips = await t.db('score_skips').where({ mint }).orderBy('age_bucket');
    expect(skips.map((s) => [s.age_bucket, s.reason, s.graduated_at.toISOString(), s.features])).toEqual([
      [30, 'graduated', new Date(create.at.getTime() + 500).toISOString(), null],
      [60, 'graduated', new Date(create.at.getTime() + 500).toISOString(), null],
    ]);
    // Nothing is published for the mint as a prediction.
    const r = await call(`${api.url}/api/predictions/by_mint/${mint}`);
    if (r.status === 200) {
      expectConforms('get', '/api/predictions/by_mint/{mint}', 200, r.body);
      expect(r.body.predictions).toEqual([]);
    } else expect(r.status).toBe(404);
  });

  it('logs no prediction from a model fitted on an empty corpus, keeps what it observed, and learns from it once resolved', async () => {
    const { mint, create, buy } = launch();
    await pipeline.handle([create, buy(200, 500_000_000), buy(400, 300_000_000)]);
    const state = await result(mint);
    expect(state.scores.map((s) => [s.bucket, s.status, s.reason])).toEqual([
      [30, 'skipped', 'model_warming'],
      [60, 'skipped', 'model_warming'],
    ]);
    expect(await t.db('predictions').where({ mint })).toEqual([]);
    const skips = await t.db('score_skips').where({ mint }).orderBy('age_bucket');
    expect(skips.map((s) => s.reason)).toEqual(['model_warming', 'model_warming']);
    for (const s of skips) {
      expect(s.model_version).toMatch(/^knn-v1@\d+:0:/);
      expect(s.features).toMatchObject({ buyCount: 2 });
      expect(s.price_sol).toBeGreaterThan(0);
      // Resolved: the runner label the corpus learns with, from the price observed then.
      expect(s.peak_mult_24h).toBeGreaterThanOrEqual(1);
    }
    // The observation is a corpus row now that the mint resolved.
    const corpus = await createCorpusStore(t.db).modelCorpus(60, LABEL_VERSION, RUG_LABEL_VERSION, 1000);
    expect(corpus.find((r) => r.mint === mint)).toMatchObject({ graduated: false, source: 'live', features: { buyCount: 2 } });
  });
});
