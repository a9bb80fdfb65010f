import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import { createPredictionStore, type NewPrediction } from '../../../db/mint/prediction-store';
import { utcHourStart } from '../../../domain/ledger/ledger-hour';
import { loadConfig } from '../../../platform/config';
import { scheduleSpecs } from '../../../workers/schedules';
import { ledgerAnchorWorkflowId, type LedgerAnchorResult } from '../../../workflows/ledger/ledger-anchor-contract';
import { LEDGER_HOUR_COMMIT_WORKFLOW, ledgerCommitWorkflowId, type LedgerCommitResult } from '../../../workflows/ledger/ledger-commit-contract';
import { LEDGER_TICK_SCHEDULE_ID, LEDGER_TICK_WORKFLOW, type LedgerTickResult } from '../../../workflows/ledger/ledger-tick-contract';
import { ensureSchedules } from '../../../workflows/schedule-starter';
import { startMemoNode, type MemoNode } from '../../fakes/solana-memo-chain';
import { insertPredictionRows } from '../../support/ledger-rows';
import { createTestDatabase } from '../../support/test-db';
import { startWorker, uniqueId } from '../../support/worker-harness';

/**
 * The ledger's scheduled run on the real Temporal test server: each closed hour committed exactly once whatever
 * the runs, duplicates and worker restarts; the seal the database enforces afterwards; each new commit anchored
 * through the memo client against a local node, which being down delays the anchor and never the commit; and the
 * production Schedule.
 */
const H = 3_600_000;
const MIN = 60_000;
const BASE = utcHourStart(new Date(Date.now() - (200 + Math.floor(Math.random() * 5000)) * H));
const hour = (k: number) => new Date(BASE.getTime() + k * H);
// The worker's clock: what it seals is what closed LEDGER_GRACE_S (600 s) before it.
let clock = new Date(hour(3).getTime() + 20 * MIN);
const key = Keypair.generate();
const taskQueue = uniqueId('ledger-q');

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let node: MemoNode;
let w: Awaited<ReturnType<typeof startWorker>>;
const start = () =>
  startWorker(t.db, {
    env: { TEMPORAL_TASK_QUEUE: taskQueue, LEDGER_ANCHOR_SECRET_KEY: bs58.encode(key.secretKey), LEDGER_ANCHOR_RPC_URL: node.url },
    now: () => clock,
    overrides: { ledger: { confirmWaitMs: 2000, pollMs: 100 } },
  });
let lastTickId = '';
const tick = () =>
  w.client.workflow.execute(LEDGER_TICK_WORKFLOW, { taskQueue, workflowId: (lastTickId = uniqueId('ledger-tick')) }) as Promise<LedgerTickResult>;
const anchorOf = (k: number) => w.client.workflow.getHandle(ledgerAnchorWorkflowId('grad_prob', hour(k))).result() as Promise<LedgerAnchorResult>;
const count = async (table: string) => Number((await t.db(table).count({ n: '*' }).first())!.n);

beforeAll(async () => {
  t = await createTestDatabase();
  node = await startMemoNode();
  w = await start();
  await insertPredictionRows(t.db, { hourStart: hour(0), count: 5, tag: 'h0' });
  await insertPredictionRows(t.db, { hourStart: hour(2), count: 3, tag: 'h2' }); // hour 1 stays empty: no commit
});
afterAll(async () => {
  await w.stop();
  await node.close();
  await t.drop();
});

describe('ledger tick', () => {
  it('commits each closed hour exactly once across runs, a duplicated hour workflow and a worker restart, and anchors each', async () => {
    const first = await tick();
    expect(first.committed).toEqual([
      { track: 'grad_prob', hourStart: hour(0).toISOString(), leafCount: 5, created: true },
      { track: 'grad_prob', hourStart: hour(2).toISOString(), leafCount: 3, created: true },
    ]);
    expect(first).toMatchObject({ sealedUntil: hour(3).toISOString(), anchorsStarted: 2, failed: [] });
    await w.maybeRecordHistory(lastTickId, 'ledger-tick-commits');
    await w.maybeRecordHistory(ledgerCommitWorkflowId('grad_prob', hour(0)), 'ledger-hour-commit-created');
    const roots = await t.db('ledger_commits').orderBy('hour_start').select('root_hex', 'prev_root_hex');
    expect(roots[1].prev_root_hex).toBe(roots[0].root_hex);

    expect((await tick()).committed).toEqual([]);
    // The hour's workflow run again under another id (a duplicate start): the stored commit, not a second one.
    const dupId = uniqueId('ledger-commit-dup');
    const again = (await w.client.workflow.execute(LEDGER_HOUR_COMMIT_WORKFLOW, {
      taskQueue,
      workflowId: dupId,
      args: [{ track: 'grad_prob', hourStart: hour(0).toISOString() }],
    })) as LedgerCommitResult;
    expect(again).toMatchObject({ created: false, leafCount: 5, rootHex: roots[0].root_hex });
    await w.maybeRecordHistory(dupId, 'ledger-hour-commit-existing');

    await w.stop();
    w = await start();
    expect((await tick()).committed).toEqual([]);
    expect([await count('ledger_commits'), await count('ledger_leaves'), await count('ledger_sealed_hours')]).toEqual([2, 8, 2]);

    const anchors = [await anchorOf(0), await anchorOf(2)];
    expect(anchors.map((a) => a.memo)).toEqual(roots.map((r) => expect.stringContaining(r.root_hex)));
    expect(node.chain.landed().map((l) => l.signature)).toEqual(anchors.map((a) => a.signature));
    expect(await count('ledger_anchors')).toBe(2);
    await w.maybeRecordHistory(ledgerAnchorWorkflowId('grad_prob', hour(0)), 'ledger-anchor-landed');
  });

  it('refuses, in the database, any row written into, changed or removed from a sealed hour; the scoring store reports the refusal', async () => {
    const late = { ...sampleRow(), predictedAt: new Date(hour(2).getTime() + 30 * MIN) };
    const store = createPredictionStore(t.db);
    await expect(store.insertOnce(late)).rejects.toMatchObject({ name: 'LedgerHourSealedError' });
    expect(await store.insertUnlessSealed(late)).toEqual({ refused: 'ledger_hour_sealed' });
    const committed = await t.db('predictions').where('predicted_at', '<', hour(3)).first('id');
    await expect(t.db('predictions').where({ id: committed.id }).update({ grad_prob: 0.99 })).rejects.toMatchObject({ code: 'LG001' });
    await expect(t.db('predictions').where({ id: committed.id }).delete()).rejects.toMatchObject({ code: 'LG001' });
    // The seal only moves forward, and commits are append-only.
    await expect(
      t
        .db('ledger_seals')
        .where({ track: 'grad_prob' })
        .update({ sealed_until: hour(0) }),
    ).rejects.toMatchObject({ code: 'LG002' });
    await expect(t.db('ledger_commits').delete()).rejects.toMatchObject({ code: 'LG002' });
    // The hour still open takes rows.
    expect(await store.insertUnlessSealed({ ...late, predictedAt: new Date(hour(3).getTime() + 5 * MIN) })).toMatchObject({ inserted: true });
  });

  it('commits while the Solana node is down, and anchors once it is back', async () => {
    node.rpc.setHttpFault('unavailable');
    clock = new Date(hour(4).getTime() + 20 * MIN);
    const r = await tick();
    expect(r.committed).toEqual([{ track: 'grad_prob', hourStart: hour(3).toISOString(), leafCount: 1, created: true }]);
    await new Promise((res) => setTimeout(res, 1000));
    const c = await t
      .db('ledger_commits')
      .where({ hour_start: hour(3) })
      .first('id');
    expect(await t.db('ledger_anchors').where({ commit_id: c.id }).first()).toBeUndefined();
    node.rpc.setHttpFault(null);
    const a = await anchorOf(3);
    expect(await t.db('ledger_anchors').where({ commit_id: c.id }).first('signature')).toEqual({ signature: a.signature });
    await w.maybeRecordHistory(ledgerAnchorWorkflowId('grad_prob', hour(3)), 'ledger-anchor-node-down');
  }, 60_000);

  it('runs from the production Temporal Schedule', async () => {
    await insertPredictionRows(t.db, { hourStart: hour(5), count: 4, tag: 'h5' });
    clock = new Date(hour(6).getTime() + 20 * MIN);
    const spec = scheduleSpecs(loadConfig({})).find((s) => s.scheduleId === LEDGER_TICK_SCHEDULE_ID)!;
    expect(spec).toMatchObject({ workflowType: LEDGER_TICK_WORKFLOW, everyS: 60 });
    const scheduleId = uniqueId('schedule:ledger');
    await ensureSchedules(w.client, taskQueue, [{ ...spec, scheduleId, workflowIdPrefix: uniqueId('ledger-tick') }], true);
    try {
      let commit: { leaf_count: number } | undefined;
      for (let i = 0; i < 150 && !commit; i++) {
        await new Promise((res) => setTimeout(res, 200));
        commit = await t
          .db('ledger_commits')
          .where({ hour_start: hour(5) })
          .first('leaf_count');
      }
      expect(commit).toEqual({ leaf_count: 4 });
    } finally {
      await w.client.schedule.getHandle(scheduleId).delete();
    }
  }, 60_000);
});

function sampleRow(): NewPrediction {
  return {
    mint: uniqueId('LateMint'),
    ageBucket: 30,
    asOf: hour(2),
    predictedAt: hour(2),
    gradProb: 0.4,
    rawProb: 0.4,
    modelVersion: 'knn-v1@30:1:test',
    features: { vSolSol: 31 },
    calibration: { confidence_band: { lo: 0.3, hi: 0.5 }, n: 10, historical_actual_rate: 0.4 },
    priceSol: 3e-8,
    rugProb: null,
    runnerOdds: null,
    survivalProb: null,
    modelVersions: {},
    rugFeatures: {},
    context: {},
  };
}
