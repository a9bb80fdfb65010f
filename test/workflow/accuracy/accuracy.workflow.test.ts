import { loadConfig } from '../../../platform/config';
import { createLaunchEventStore } from '../../../db/mint/launch-event-store';
import { createOutcomeStore } from '../../../db/mint/outcome-store';
import { createPredictionStore } from '../../../db/mint/prediction-store';
import type { CreateEvent } from '../../../domain/launch/launch-events';
import { LABEL_VERSION, RUG_LABEL_VERSION } from '../../../domain/launch/outcome-labels';
import { scheduleSpecs } from '../../../workers/schedules';
import { ensureSchedules } from '../../../workflows/schedule-starter';
import { ACCURACY_SCHEDULE_ID, ACCURACY_WORKFLOW, type AccuracyResult } from '../../../workflows/accuracy/accuracy-contract';
import { call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { createTestDatabase } from '../../support/test-db';
import { startWorker, uniqueId, useWorker } from '../../support/worker-harness';

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;
let api: Awaited<ReturnType<typeof startApi>>;

useWorker({ api: {} }, (bed) => ({ t, w, api } = bed));

/** One resolved mint with a forward prediction at 30 s, written as the lifecycle's activities write them. */
async function resolvedMint(tag: string, gradProb: number, graduated: boolean) {
  const createdAt = new Date(Date.now() - 2 * 86_400_000);
  const mint = tag.padEnd(44, 'x');
  const create: CreateEvent = {
    kind: 'create',
    signature: `sig${tag}`.padEnd(88, 'y'),
    ordinal: 0,
    slot: 1,
    at: createdAt,
    source: 'test',
    mint,
    name: 'T',
    symbol: 'T',
    uri: '',
    bondingCurve: `curve${tag}`.padEnd(44, 'z'),
    creator: 'DevWallet'.padEnd(44, 'd'),
    mayhem: false,
    vSolLamports: 30e9,
    vTokensRaw: 1_073e12,
  };
  await createLaunchEventStore(t.db).writeBatch([create]);
  const asOf = new Date(createdAt.getTime() + 30_000);
  const p = await createPredictionStore(t.db).insertOnce({
    mint,
    ageBucket: 30,
    asOf,
    predictedAt: asOf,
    gradProb,
    rawProb: gradProb,
    modelVersion: 'knn-v1@30:0:x',
    features: {},
    calibration: {},
    priceSol: 3e-8,
    rugProb: null,
    runnerOdds: null,
    survivalProb: null,
    modelVersions: {
      grad_prob: 'knn-v1@30:0:x',
      rug_prob: 'rug-knn-v1@30:0:x',
      runner_prob: 'runner-knn-v1@30:0:x',
      post_grad_survival: 'survival-knn-v1@30:0:x',
    },
    rugFeatures: {},
    context: {},
  });
  await createOutcomeStore(t.db).recordOutcome(
    mint,
    create.creator,
    {
      labelVersion: LABEL_VERSION,
      graduated,
      timeToGraduationS: null,
      peakPriceSol: 3e-8,
      finalPriceSol: 3e-8,
      peakMultFromLaunch: 1,
      rugged: false,
      rugLabelVersion: RUG_LABEL_VERSION,
      sustained30m: null,
    },
    [{ predictionId: p.id, peakMult24h: graduated ? 4 : 1 }],
    new Date(createdAt.getTime() + 86_400_000),
  );
}

describe('accuracy recompute workflow → cached page → GET /api/accuracy', () => {
  it('recomputes through Temporal, and the API serves the cached row', async () => {
    await resolvedMint('MintA', 0.8, true);
    await resolvedMint('MintB', 0.3, false);
    const workflowId = uniqueId('accuracy');
    const result: AccuracyResult = await w.client.workflow.execute(ACCURACY_WORKFLOW, { taskQueue: w.taskQueue, workflowId });
    await w.maybeRecordHistory(workflowId, 'accuracy-recompute');
    expect(result).toMatchObject({ predictions: 2, survivalGate: 'suspended' });
    const r = await call(`${api.url}/api/accuracy`);
    expect(r.status).toBe(200);
    expectConforms('get', '/api/accuracy', 200, r.body);
    expect(r.body.computed_at).toBe(result.computedAt);
    expect(r.body.grad_prob[0]).toMatchObject({ model_version: 'knn-v1', n: 2, auc: 1 });
  });

  it('is kept current by a Temporal Schedule', async () => {
    await resolvedMint('MintC', 0.6, true);
    const spec = scheduleSpecs(loadConfig({})).find((s) => s.scheduleId === ACCURACY_SCHEDULE_ID)!;
    const scheduleId = uniqueId('schedule:accuracy');
    // The production spec under a test id, started at once.
    await ensureSchedules(w.client, w.taskQueue, [{ ...spec, scheduleId, workflowIdPrefix: uniqueId('accuracy') }], true);
    try {
      let n = 0;
      for (let i = 0; i < 100 && n !== 3; i++) {
        await new Promise((res) => setTimeout(res, 200));
        const body = (await call(`${api.url}/api/accuracy`)).body;
        n = body?.grad_prob?.[0]?.n ?? 0;
      }
      expect(n).toBe(3);
    } finally {
      await w.client.schedule.getHandle(scheduleId).delete();
    }
  });
});
