import { createCorpusStore } from '../../../db/mint/corpus-store';
import type { LaunchEvent } from '../../../domain/launch/launch-events';
import { LABEL_VERSION, RUG_LABEL_VERSION } from '../../../domain/launch/outcome-labels';
import { MIN_GRAD_CORPUS } from '../../../domain/scoring/grad-prob-model';
import { createIngestPipeline } from '../../../ingest/pipeline/ingest-pipeline';
import { mintWorkflowId, type LifecycleState } from '../../../workflows/mint/mint-lifecycle-contract';
import { launchNow, quickTiming, testSignature } from '../../support/lifecycle-launch';
import { call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { createTestDatabase } from '../../support/test-db';
import { startWorker } from '../../support/worker-harness';
import { testIngestPipeline } from '../../support/test-ingest-pipeline';

const TIMING = quickTiming(4);

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;
let api: Awaited<ReturnType<typeof startApi>>;
let pipeline: ReturnType<typeof createIngestPipeline>;

beforeAll(async () => {
  t = await createTestDatabase();
  // The production warming line: these mints meet an empty corpus. No checkpoints are taken, so no price source.
  w = await startWorker(t.db, { env: { MODEL_MIN_SERVING_CORPUS: String(MIN_GRAD_CORPUS) } });
  api = await startApi(t.db);
  pipeline = testIngestPipeline(t.db, w, TIMING);
});
afterAll(async () => {
  await api.close();
  await w.stop();
  await t.drop();
});

const sig = testSignature;
const launch = launchNow;

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
