import path from 'node:path';
import { historyActivities } from '../../../activities/history';
import { mergeActivityAreas } from '../../../activities/activity-area';
import { PumpEventDecoder } from '../../../clients/solana/pump/pump-event-decoder';
import { loadPumpIdl, PUMP_PROGRAM_ID } from '../../../clients/solana/pump/pump-idl';
import { onStartBackfill } from '../../../domain/history/backfill-on-start';
import { eventKey } from '../../../domain/launch/launch-events';
import type { HistoryBackfillProgress } from '../../../workflows/history/history-backfill-contract';
import { startSolanaRpcServer, type SolanaRpcFake } from '../../fakes/solana-rpc-server';
import { call, startApi } from '../../support/api-harness';
import { areaContext } from '../../support/area-context';
import { expectConforms } from '../../support/contract';
import { createTestDatabase } from '../../support/test-db';
import { SHARED_DATA } from '../../support/test-env';
import { startWorker, uniqueId } from '../../support/worker-harness';

/**
 * The automatic backfill of a deployment's first start, on the real Temporal server against the local Solana node
 * serving the recorded transactions: the worker's start backfills the last HISTORY_BACKFILL_ON_START_H hours once
 * (two workers starting together and every later restart start, join or skip that one range), shows it on
 * /api/predictor/health, resumes a run that did not finish, and does nothing without a backfill node configured.
 */
const IDL = path.join(SHARED_DATA, 'idl', 'pump.json');
const decoder = new PumpEventDecoder(loadPumpIdl(IDL));
const LAG_S = 60;
// 26 h in two chunks: the capture sits 25 h before the range's end, so its mints are a label horizon old and folded.
const HOURS = 26;
const CHUNK_S = 13 * 3_600;

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let rpc: SolanaRpcFake;
let startedAtMs: number;
let expected: { mints: string[]; trades: string[] };

beforeAll(async () => {
  t = await createTestDatabase();
  // The capture's own days: `shiftDays` moves block times but not the timestamps inside the program's events, which
  // date a mint (and place it in the chunk that folds it). The range, 26 h ending 25 h after the capture, is this
  // file's alone, so no other file's workflow ids collide with it.
  rpc = await startSolanaRpcServer({ programId: PUMP_PROGRAM_ID, shiftDays: 0 });
  const txs = rpc.publish();
  // The deployment first starts 25 h after the capture's last transaction (and its lag), 10 s into a minute, so
  // starts a few seconds apart want the same range.
  startedAtMs = Math.ceil((txs[txs.length - 1]!.blockTime + LAG_S + 25 * 3_600) / 60) * 60_000 + 10_000;
  const events = txs
    .filter((tx) => tx.err === null)
    .flatMap((tx) => decoder.decodeTransaction({ ...tx, blockTime: new Date(tx.blockTime * 1000) }, { source: 'backfill', receivedAt: new Date() }).events);
  expected = {
    mints: events.flatMap((e) => (e.kind === 'create' ? [e.mint] : [])).sort(),
    trades: events.flatMap((e) => (e.kind === 'trade' ? [eventKey(e)] : [])).sort(),
  };
}, 60_000);
afterAll(async () => {
  await rpc.close();
  await t.drop();
});
afterEach(async () => {
  await t.db.raw(
    `TRUNCATE history_backfill_on_start, history_backfill_chunks, history_backfill_pages, history_rpc_days, history_observations, history_runs,
       mint_outcomes, creators, wallet_records, wallet_mint_contributions, wallet_index_mints, trades, mint_graduations, mints CASCADE`,
  );
});

const env = (taskQueue: string, o: Record<string, string> = {}) => ({
  TEMPORAL_TASK_QUEUE: taskQueue,
  PUMP_IDL_PATH: IDL,
  HISTORY_BACKFILL_RPC_URL: rpc.url,
  HISTORY_BACKFILL_REQUESTS_PER_S: '200',
  HISTORY_BACKFILL_ON_START_H: String(HOURS),
  HISTORY_BACKFILL_LAG_S: String(LAG_S),
  HISTORY_BACKFILL_CHUNK_S: String(CHUNK_S),
  HISTORY_BACKFILL_PAGE_SIZE: '20',
  ...o,
});

/** What a worker process does at start for the history area, with its own settings and clock. */
async function startArea(w: Awaited<ReturnType<typeof startWorker>>, e: Record<string, string>, nowMs: number) {
  const ctx = { ...areaContext(t.db, { env: e, now: () => new Date(nowMs) }), temporal: w.client };
  const stop = await mergeActivityAreas([historyActivities], ctx).start();
  stop();
}

async function stored() {
  const mints = (await t.db('mints').select('mint', 'source')).map((m) => `${m.mint}:${m.source}`).sort();
  const trades = (await t.db('trades').select('event_key')).map((x) => x.event_key as string).sort();
  return { mints, trades };
}

async function health() {
  const api = await startApi(t.db);
  try {
    const r = await call(`${api.url}/api/predictor/health`);
    expect(r.status).toBe(200);
    expectConforms('get', '/api/predictor/health', 200, r.body);
    return r.body.corpus.backfill_on_start;
  } finally {
    await api.close();
  }
}

const wanted = (nowMs: number) => onStartBackfill({ hours: HOURS, nowMs, lagS: LAG_S, chunkS: CHUNK_S })!;

describe('backfill on first start', () => {
  it('backfills the last N hours once: two workers starting together run one range, a later restart reads nothing again', async () => {
    const queue = uniqueId('on-start');
    const w = await startWorker(t.db, { env: env(queue), now: () => new Date(startedAtMs) });
    try {
      const range = wanted(startedAtMs);
      expect(range.chunks).toBe(2);
      // Two worker processes starting at once (a second one a few seconds later).
      await Promise.all([startArea(w, env(queue), startedAtMs), startArea(w, env(queue), startedAtMs + 5_000)]);
      const handle = w.client.workflow.getHandle(range.rangeId);
      const firstRun = (await handle.describe()).runId;
      const progress = (await handle.result()) as HistoryBackfillProgress;

      const s = await stored();
      expect(expected.mints.length).toBeGreaterThan(5);
      expect(s.mints).toEqual(expected.mints.map((m) => `${m}:backfill`));
      expect(s.trades).toEqual(expected.trades);
      expect(await health()).toEqual({
        workflow_id: range.rangeId,
        from: new Date(range.fromMs).toISOString(),
        to: new Date(range.toMs).toISOString(),
        hours: HOURS,
        requested_at: expect.stringMatching(new RegExp(`^(${new Date(startedAtMs).toISOString()}|${new Date(startedAtMs + 5_000).toISOString()})$`)),
        chunks: 2,
        chunks_done: 2,
        state: 'done',
      });

      // Its mints, a label horizon old, are folded into the corpus and the wallet index.
      const historyMints = await t.db('history_observations').where({ source: 'backfill' }).countDistinct({ n: 'mint' }).first();
      expect(progress.historyMints).toBeGreaterThan(0);
      expect(Number(historyMints!.n)).toBe(progress.historyMints);
      expect(Number((await t.db('wallet_records').count({ n: '*' }).first())!.n)).toBeGreaterThan(0);

      // Restarted three hours later: the stored range is done, no run is started and the node is not asked again.
      const sent = rpc.calls('getSignaturesForAddress') + rpc.calls('getTransaction');
      await startArea(w, env(queue), startedAtMs + 3 * 3_600_000);
      expect((await handle.describe()).runId).toBe(firstRun);
      expect(rpc.calls('getSignaturesForAddress') + rpc.calls('getTransaction')).toBe(sent);
      expect((await health()).workflow_id).toBe(range.rangeId);
      expect(await stored()).toEqual(s);
    } finally {
      await w.stop();
    }
  }, 120_000);

  it('resumes a first-start backfill whose run did not finish at the next start', async () => {
    // The first start's run is stopped before any worker ran it (the worker killed at once, or an operator's terminate).
    const queue = uniqueId('on-start');
    const range = wanted(startedAtMs);
    const w0 = await startWorker(t.db, { env: { TEMPORAL_TASK_QUEUE: uniqueId('idle') } });
    try {
      await startArea(w0, env(queue), startedAtMs);
      await w0.client.workflow.getHandle(range.rangeId).terminate('stopped before it finished');
    } finally {
      await w0.stop();
    }
    expect(await health()).toMatchObject({ workflow_id: range.rangeId, chunks_done: 0, state: 'in_progress' });
    expect(await stored()).toEqual({ mints: [], trades: [] });

    const w = await startWorker(t.db, { env: env(queue), now: () => new Date(startedAtMs) });
    try {
      await startArea(w, env(queue), startedAtMs + 600_000);
      await w.client.workflow.getHandle(range.rangeId).result();
      expect(await stored()).toEqual({ mints: expected.mints.map((m) => `${m}:backfill`), trades: expected.trades });
      expect(await health()).toMatchObject({ workflow_id: range.rangeId, chunks_done: 2, state: 'done' });
    } finally {
      await w.stop();
    }
  }, 120_000);

  it('starts nothing without a backfill node configured, and refuses to start without the IDL to decode with', async () => {
    const queue = uniqueId('on-start');
    const w = await startWorker(t.db, { env: { TEMPORAL_TASK_QUEUE: queue } });
    try {
      const sent = rpc.calls('getSignaturesForAddress');
      // The embedded default: no HISTORY_BACKFILL_RPC_URL, whatever HISTORY_BACKFILL_ON_START_H says.
      await startArea(w, { TEMPORAL_TASK_QUEUE: queue, HISTORY_BACKFILL_ON_START_H: '48' }, startedAtMs);
      expect(await t.db('history_backfill_on_start').select()).toEqual([]);
      expect(await health()).toBeNull();
      await startArea(w, env(queue, { HISTORY_BACKFILL_ON_START_H: '0' }), startedAtMs);
      expect(await health()).toBeNull();
      expect(rpc.calls('getSignaturesForAddress')).toBe(sent);

      await expect(startArea(w, env(queue, { PUMP_IDL_PATH: '' }), startedAtMs)).rejects.toThrow(/set PUMP_IDL_PATH/);
      expect(await t.db('history_backfill_on_start').select()).toEqual([]);
    } finally {
      await w.stop();
    }
  }, 60_000);
});
