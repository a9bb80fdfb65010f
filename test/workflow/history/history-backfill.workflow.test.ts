import path from 'node:path';
import { PumpEventDecoder } from '../../../clients/solana/pump/pump-event-decoder';
import { loadPumpIdl, PUMP_PROGRAM_ID } from '../../../clients/solana/pump/pump-idl';
import { createBackfillStore } from '../../../db/history/backfill-store';
import { backfillChunkId, backfillChunks, backfillRangeId } from '../../../domain/history/backfill-range';
import { eventKey, type LaunchEvent } from '../../../domain/launch/launch-events';
import { waitFor } from '../../../scripts/lib/run';
import {
  historyBackfillChunkProgressQuery,
  historyBackfillProgressQuery,
  type BackfillChunkProgress,
  type HistoryBackfillInput,
  type HistoryBackfillProgress,
} from '../../../workflows/history/history-backfill-contract';
import { startHistoryBackfill } from '../../../workflows/history/history-backfill-starter';
import { startSolanaRpcServer, uniqueShiftDays, type SolanaRpcFake } from '../../fakes/solana-rpc-server';
import { createTestDatabase } from '../../support/test-db';
import { SHARED_DATA } from '../../support/test-env';
import { startWorker } from '../../support/worker-harness';

/**
 * The chain backfill on the real Temporal server against the local Solana node serving the recorded launchpad
 * transactions (getSignaturesForAddress pages, getTransaction in the real reply format): a range is stored exactly
 * once through the live feed's write path, a node that does not return a listed transaction yet is asked again, 429s
 * slow it down instead of failing it, and a spent daily cap makes it wait for the next day.
 */
const IDL = path.join(SHARED_DATA, 'idl', 'pump.json');
const decoder = new PumpEventDecoder(loadPumpIdl(IDL));

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let rpc: SolanaRpcFake;
let fromMs: number;
let toMs: number;
let expected: LaunchEvent[];

beforeAll(async () => {
  t = await createTestDatabase();
  rpc = await startSolanaRpcServer({ programId: PUMP_PROGRAM_ID, shiftDays: uniqueShiftDays() });
  const txs = rpc.publish();
  fromMs = txs[0]!.blockTime * 1000;
  toMs = (txs[txs.length - 1]!.blockTime + 1) * 1000;
  expected = txs
    .filter((tx) => tx.err === null)
    .flatMap((tx) => decoder.decodeTransaction({ ...tx, blockTime: new Date(tx.blockTime * 1000) }, { source: 'backfill', receivedAt: new Date() }).events);
}, 60_000);
afterAll(async () => {
  await rpc.close();
  await t.drop();
});
afterEach(async () => {
  rpc.setRateLimit(null);
  await t.db.raw('TRUNCATE history_backfill_chunks, history_backfill_pages, history_rpc_days, trades, mint_graduations, mints CASCADE');
});

const env = (o: Record<string, string> = {}) => ({
  PUMP_IDL_PATH: IDL,
  HISTORY_BACKFILL_RPC_URL: rpc.url,
  HISTORY_BACKFILL_REQUESTS_PER_S: '200',
  ...o,
});
const input = (o: Partial<HistoryBackfillInput> = {}): HistoryBackfillInput => ({ fromMs, toMs, chunkS: 10, pageSize: 20, ...o });

/** What the tables hold, keyed as the feeds key events. */
async function stored() {
  const mints = await t.db('mints').select('mint', 'source', 'workflow_started_at');
  const trades = await t.db('trades').select('event_key', 'source');
  return { mints, trades };
}

function expectExactlyTheCapture(s: Awaited<ReturnType<typeof stored>>) {
  const creates = expected.filter((e) => e.kind === 'create');
  const trades = expected.filter((e) => e.kind === 'trade');
  expect(creates.length).toBeGreaterThan(5);
  expect(trades.length).toBeGreaterThan(20);
  expect(s.mints.map((m) => m.mint).sort()).toEqual(creates.map((c) => c.mint).sort());
  expect(s.trades.map((x) => x.event_key).sort()).toEqual(trades.map(eventKey).sort());
  expect(new Set([...s.mints, ...s.trades].map((r) => r.source))).toEqual(new Set(['backfill']));
  // History is never predicted: the lifecycle outbox of every backfilled mint is closed.
  expect(s.mints.every((m) => m.workflow_started_at !== null)).toBe(true);
}

describe('chain backfill of a range', () => {
  it('stores every launch and trade of the range once, chunk by chunk, with progress in Postgres and in the workflow', async () => {
    const w = await startWorker(t.db, { env: env() });
    try {
      const h = await startHistoryBackfill(w.client, w.taskQueue, input());
      const p = (await h.result()) as HistoryBackfillProgress;
      await w.maybeRecordHistory(backfillRangeId(fromMs, toMs), 'history-backfill');
      const chunks = backfillChunks(fromMs, toMs, 10);
      await w.maybeRecordHistory(backfillChunkId(chunks[0]!), 'history-backfill-chunk');
      expect(chunks.length).toBeGreaterThanOrEqual(3);
      const s = await stored();
      expectExactlyTheCapture(s);
      expect(p).toMatchObject({ rangeId: backfillRangeId(fromMs, toMs), chunks: chunks.length, chunksDone: chunks.length, current: null });
      expect(p.totals.launches).toBe(s.mints.length);
      expect(p.totals.trades).toBe(s.trades.length);
      expect(p.totals.rowsWritten).toBeGreaterThanOrEqual(s.mints.length + s.trades.length);
      expect(p.totals.transactionsDecoded).toBe(rpc.captured.filter((x) => x.err === null).length);
      // Every request sent is counted against the day, those of a page attempt that failed included.
      const sent = rpc.calls('getSignaturesForAddress') + rpc.calls('getTransaction');
      expect(p.totals.requests).toBeGreaterThan(0);
      expect(p.totals.requests).toBeLessThanOrEqual(sent);

      const progress = await createBackfillStore(t.db).rangeProgress(backfillRangeId(fromMs, toMs));
      expect(progress.map((c) => c.chunkId)).toEqual(chunks.map(backfillChunkId));
      expect(progress.every((c) => c.completedAt !== null)).toBe(true);
      expect(progress.reduce((n, c) => n + c.launches, 0)).toBe(s.mints.length);
      expect(progress.reduce((n, c) => n + c.requests, 0)).toBe(p.totals.requests);
      const day = await t.db('history_rpc_days').sum({ n: 'requests' }).first();
      expect(Number(day!.n)).toBe(sent);

      // The same range again: every chunk is complete, nothing is read or written twice.
      const before = rpc.calls('getTransaction') + rpc.calls('getSignaturesForAddress');
      const again = (await (await startHistoryBackfill(w.client, w.taskQueue, input())).result()) as HistoryBackfillProgress;
      expect(again.totals.requests).toBe(0);
      expect(rpc.calls('getTransaction') + rpc.calls('getSignaturesForAddress')).toBe(before);
      expect(await stored()).toEqual(s);
    } finally {
      await w.stop();
    }
  }, 120_000);

  it('asks again for transactions the node lists but does not return yet, and slows down on 429 instead of failing', async () => {
    const w = await startWorker(t.db, { env: env({ HISTORY_BACKFILL_REQUESTS_PER_S: '100' }) });
    try {
      const some = rpc.captured.filter((x) => x.err === null).slice(0, 12);
      rpc.lagTransactions(
        some.map((x) => x.signature),
        2,
      );
      // The provider allows 15 requests per second and says so with Retry-After: 1.
      rpc.setRateLimit({ perSecond: 15, retryAfterS: 1 });
      const p = (await (await startHistoryBackfill(w.client, w.taskQueue, input())).result()) as HistoryBackfillProgress;
      expect(rpc.rateLimited()).toBeGreaterThan(0);
      expectExactlyTheCapture(await stored());
      expect(p.totals.transactionsDecoded).toBe(rpc.captured.filter((x) => x.err === null).length);
    } finally {
      await w.stop();
    }
  }, 120_000);

  it('keeps to its requests per second', async () => {
    const w = await startWorker(t.db, { env: env({ HISTORY_BACKFILL_REQUESTS_PER_S: '20' }) });
    try {
      const from = rpc.requestTimes().length;
      await (await startHistoryBackfill(w.client, w.taskQueue, input())).result();
      const times = rpc.requestTimes().slice(from);
      expect(times.length).toBeGreaterThan(60);
      // A bucket of one second's requests refilled at the rate: no 1 s window sees more than twice the rate, and the
      // whole run averages no more than the rate (after the first second's burst).
      const maxWindow = Math.max(...times.map((t0) => times.filter((x) => x >= t0 && x < t0 + 1000).length));
      expect(maxWindow).toBeLessThanOrEqual(40);
      const spanS = (times[times.length - 1]! - times[0]!) / 1000;
      expect((times.length - 20) / spanS).toBeLessThanOrEqual(20 * 1.15);
    } finally {
      await w.stop();
    }
  }, 120_000);

  it('waits for the next UTC day when the daily request cap is spent', async () => {
    const w = await startWorker(t.db, { env: env({ HISTORY_BACKFILL_DAILY_REQUESTS: '60' }) });
    try {
      const h = await startHistoryBackfill(w.client, w.taskQueue, input());
      let p: BackfillChunkProgress | null = null;
      let chunk = '';
      await waitFor(
        'a chunk to wait for its budget',
        async () => {
          chunk = (await h.query(historyBackfillProgressQuery)).current ?? '';
          p = chunk
            ? await w.client.workflow
                .getHandle(chunk)
                .query(historyBackfillChunkProgressQuery)
                .catch(() => null)
            : null;
          return !!p?.waitingUntil;
        },
        60_000,
      );
      const nextDay = new Date(Math.floor(Date.now() / 86_400_000 + 1) * 86_400_000).toISOString();
      expect(p!.waitingUntil).toBe(nextDay);
      const day = await t.db('history_rpc_days').sum({ n: 'requests' }).first();
      expect(Number(day!.n)).toBeLessThanOrEqual(60);
      // It stopped part-way: what it read before the cap is stored.
      expect(Number((await t.db('trades').count({ n: '*' }).first())!.n)).toBeGreaterThan(0);
      expect(p!.done).toBe(false);
      await h.terminate('test over');
      await w.client.workflow
        .getHandle(chunk)
        .terminate('test over')
        .catch(() => undefined);
    } finally {
      await w.stop();
    }
  }, 120_000);
});
