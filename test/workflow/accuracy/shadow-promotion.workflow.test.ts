import { SHADOW_ROW_SOURCE } from '../../../db/ledger/shadow-row-source';
import { PROMOTION_ROW_SOURCE } from '../../../db/ledger/promotion-row-source';
import { createShadowStore } from '../../../db/accuracy/shadow-store';
import { readLeafPayload } from '../../../domain/ledger/ledger-tracks';
import { mintWorkflowId, type LifecycleState } from '../../../workflows/mint/mint-lifecycle-contract';
import { launchNow, quickTiming } from '../../support/lifecycle-launch';
import { SHADOW_PROMOTION_WORKFLOW, type ShadowPromotionRunResult } from '../../../workflows/accuracy/shadow-promotion-contract';
import { seedShadowEvidence } from '../../support/shadow-fixtures';
import { createTestDatabase } from '../../support/test-db';
import { startWorker, uniqueId } from '../../support/worker-harness';
import { testIngestPipeline } from '../../support/test-ingest-pipeline';

const TIMING = quickTiming(3);

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;
/** The activities' clock runs with real time, moved on by whole hours: one decision per challenger and UTC hour. */
let hoursLater = 0;
const nextHour = () => hoursLater++;

beforeAll(async () => {
  t = await createTestDatabase();
  // The serving champion knn-v1 and one challenger in shadow (knn-v1 with k = 25), as configured in production.
  w = await startWorker(t.db, {
    env: { MODEL_CHAMPION: 'knn-v1', MODEL_CHALLENGERS: 'knn-v1-k25' },
    now: () => new Date(Date.now() + hoursLater * 3_600_000),
  });
});
afterAll(async () => {
  await w.stop();
  await t.drop();
});

const judge = () =>
  w.client.workflow.execute<() => Promise<ShadowPromotionRunResult>>(SHADOW_PROMOTION_WORKFLOW, {
    taskQueue: w.taskQueue,
    workflowId: uniqueId('shadow-promotion'),
  });

describe('shadow models on the real Temporal server', () => {
  it('logs every challenger’s score of a mint forward beside the served one, never served, as ledger leaves', async () => {
    const pipeline = testIngestPipeline(t.db, w, TIMING);
    const { mint, create, buy } = launchNow();
    await pipeline.handle([create, buy(200, 500_000_000)]);
    const state: LifecycleState = await w.client.workflow.getHandle(mintWorkflowId(mint)).result();
    expect(state.scores.map((s) => s.status)).toEqual(['scored', 'scored']);

    const served = await t.db('predictions').where({ mint }).orderBy('age_bucket');
    const shadow = await t.db('shadow_predictions').where({ mint }).orderBy('age_bucket');
    expect(served.map((p) => p.model_version)).toEqual([expect.stringMatching(/^knn-v1@30:/), expect.stringMatching(/^knn-v1@60:/)]);
    expect(shadow.map((s) => [s.age_bucket, s.model_name])).toEqual([
      [30, 'knn-v1-k25'],
      [60, 'knn-v1-k25'],
    ]);
    for (const [i, s] of shadow.entries()) {
      expect(s.model_version).toMatch(new RegExp(`^knn-v1-k25@${s.age_bucket}:`));
      // The same moment as the served score.
      expect(s.as_of.getTime()).toBe(served[i].as_of.getTime());
      expect(s.grad_prob).toBeGreaterThan(0);
      expect(s.grad_prob).toBeLessThan(1);
      const leaf = (await SHADOW_ROW_SOURCE.leafOf(t.db, Number(s.id)))!;
      expect(readLeafPayload(leaf.payload)).toMatchObject({
        ok: true,
        track: 'shadow',
        leaf: { mint, model_name: 'knn-v1-k25', grad_prob: String(s.grad_prob) },
      });
    }
    // Never served: the prediction the API publishes is the champion's.
    expect(served.every((p) => !String(p.model_version).startsWith('knn-v1-k25'))).toBe(true);
  });

  it('stores insufficient_data, then promotes a challenger whose forward log loss is lower, then keeps the former champion it now beats', async () => {
    // Too little evidence: a decision is still stored, and nothing changes.
    const early = await judge();
    expect(early).toMatchObject({ champion: 'knn-v1', decisions: [{ challenger: 'knn-v1-k25', decision: 'insufficient_data', created: true }] });

    const seeded = await seedShadowEvidence(t.db, new Date(), 1500);
    expect(seeded.graduates).toBeGreaterThanOrEqual(30);
    // The same hour answers the stored decision (one per hour and challenger); the next hour's run judges again.
    expect((await judge()).decisions).toEqual([{ challenger: 'knn-v1-k25', decision: 'insufficient_data', n: 0, created: false }]);
    nextHour();
    const promotionId = uniqueId('shadow-promotion');
    const promoted = await w.client.workflow.execute<() => Promise<ShadowPromotionRunResult>>(SHADOW_PROMOTION_WORKFLOW, {
      taskQueue: w.taskQueue,
      workflowId: promotionId,
    });
    await w.maybeRecordHistory(promotionId, 'shadow-promotion-promote');
    expect(promoted.champion).toBe('knn-v1');
    expect(promoted.decisions).toEqual([{ challenger: 'knn-v1-k25', decision: 'promote', n: expect.any(Number), created: true }]);
    expect(promoted.decisions[0]!.n).toBeGreaterThanOrEqual(1500);
    const store = createShadowStore(t.db);
    expect(await store.currentChampion('knn-v1')).toBe('knn-v1-k25');

    // The former champion now shadows and is judged against the new one on the same mints: it loses.
    const after = await judge();
    expect(after).toMatchObject({ champion: 'knn-v1-k25', decisions: [{ challenger: 'knn-v1', decision: 'keep', created: true }] });
    // A final decision is never looked at again.
    const again = await judge();
    expect(again.decisions).toEqual([{ challenger: 'knn-v1', decision: 'keep', n: after.decisions[0]!.n, created: false }]);

    const rows = await t.db('model_promotions').orderBy('id');
    expect(rows.map((r) => [r.champion, r.challenger, r.decision])).toEqual([
      ['knn-v1', 'knn-v1-k25', 'insufficient_data'],
      ['knn-v1', 'knn-v1-k25', 'promote'],
      ['knn-v1-k25', 'knn-v1', 'keep'],
    ]);
    const [, p, k] = rows;
    expect(p.upper_bound).toBeLessThan(0);
    expect(k.mean_diff).toBeGreaterThan(0);
    for (const r of rows) {
      const leaf = (await PROMOTION_ROW_SOURCE.leafOf(t.db, Number(r.id)))!;
      expect(readLeafPayload(leaf.payload)).toMatchObject({ ok: true, track: 'promotion', leaf: { decision: r.decision, evidence_sha256: r.evidence_sha256 } });
    }
  });
});
