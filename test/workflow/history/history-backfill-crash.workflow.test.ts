import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { PumpEventDecoder } from '../../../clients/solana/pump/pump-event-decoder';
import { loadPumpIdl, PUMP_PROGRAM_ID } from '../../../clients/solana/pump/pump-idl';
import { eventKey } from '../../../domain/launch/launch-events';
import { startDaemon } from '../../../scripts/lib/daemon-process';
import { sleep, waitFor } from '../../../scripts/lib/run';
import type { HistoryBackfillProgress } from '../../../workflows/history/history-backfill-contract';
import { startHistoryBackfill } from '../../../workflows/history/history-backfill-starter';
import { startSolanaRpcServer, uniqueShiftDays, type SolanaRpcFake } from '../../fakes/solana-rpc-server';
import { createTestDatabase } from '../../support/test-db';
import { readTestEnv, SHARED_DATA } from '../../support/test-env';
import { uniqueId } from '../../support/worker-harness';

/**
 * The backfill's worker as a real OS process, SIGKILLed in the middle of a range and started again: the range
 * completes, every launch and trade is stored once, and each page's progress row is written once with exact counts.
 */
const IDL = path.join(SHARED_DATA, 'idl', 'pump.json');
const decoder = new PumpEventDecoder(loadPumpIdl(IDL));

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let client: Client;
let rpc: SolanaRpcFake;
const daemons: ReturnType<typeof startDaemon>[] = [];
beforeAll(async () => {
  t = await createTestDatabase();
  client = new Client({ connection: await Connection.connect({ address: readTestEnv().temporalAddress }) });
  rpc = await startSolanaRpcServer({ programId: PUMP_PROGRAM_ID, shiftDays: uniqueShiftDays() });
});
afterAll(async () => {
  await Promise.all(daemons.map((d) => d.kill()));
  await rpc.close();
  await client.connection.close();
  await t.drop();
});

it('completes a range across a SIGKILL of its worker with no row stored twice', async () => {
  const txs = rpc.publish();
  const fromMs = txs[0]!.blockTime * 1000;
  const toMs = (txs[txs.length - 1]!.blockTime + 1) * 1000;
  const taskQueue = uniqueId('backfill-crash');
  const env = {
    DATABASE_URL: t.url,
    TEMPORAL_ADDRESS: readTestEnv().temporalAddress,
    TEMPORAL_TASK_QUEUE: taskQueue,
    HEARTBEAT_INTERVAL_S: '1',
    WORKER_METRICS_PORT: '0',
    PRICE_SOURCE_URL: 'http://127.0.0.1:9/unreachable',
    HYPERLIQUID_API_URL: 'http://127.0.0.1:9/unreachable',
    HYPERLIQUID_WS_URL: 'ws://127.0.0.1:9/unreachable',
    DRIFT_DATA_URL: 'http://127.0.0.1:9/unreachable',
    PUMP_IDL_PATH: IDL,
    HISTORY_BACKFILL_RPC_URL: rpc.url,
    // Only the range started here: no backfill of the last day on the worker's first start.
    HISTORY_BACKFILL_ON_START_H: '0',
    // Slow enough (about 110 requests) to be killed part-way.
    HISTORY_BACKFILL_REQUESTS_PER_S: '8',
  };
  const first = startDaemon('workers/main-worker.ts', env);
  daemons.push(first);
  const h = await startHistoryBackfill(client, taskQueue, { fromMs, toMs, chunkS: 10, pageSize: 10 });
  await waitFor('a few pages stored', async () => Number((await t.db('history_backfill_pages').count({ n: '*' }).first())!.n) >= 3, 60_000);
  await first.kill();
  const pagesAtKill = Number((await t.db('history_backfill_pages').count({ n: '*' }).first())!.n);
  await sleep(1000);
  daemons.push(startDaemon('workers/main-worker.ts', env));
  const p = (await h.result()) as HistoryBackfillProgress;
  expect(p.chunksDone).toBe(p.chunks);

  const expected = txs
    .filter((x) => x.err === null)
    .flatMap((x) => decoder.decodeTransaction({ ...x, blockTime: new Date(x.blockTime * 1000) }, { source: 'backfill', receivedAt: new Date() }).events);
  const mints = await t.db('mints').pluck('mint');
  const trades = await t.db('trades').pluck('event_key');
  const graduations = Number((await t.db('mint_graduations').count({ n: '*' }).first())!.n);
  expect(mints.sort()).toEqual(
    expected
      .filter((e) => e.kind === 'create')
      .map((e) => e.mint)
      .sort(),
  );
  expect(trades.sort()).toEqual(
    expected
      .filter((e) => e.kind === 'trade')
      .map(eventKey)
      .sort(),
  );
  // Every page once, numbered without a hole per chunk, and the rows they say they wrote are the rows stored.
  const pages = await t.db('history_backfill_pages').orderBy(['chunk_id', 'page']).select('chunk_id', 'page', 'rows_written');
  expect(pages.length).toBeGreaterThan(pagesAtKill);
  const byChunk = new Map<string, number[]>();
  for (const r of pages) byChunk.set(r.chunk_id, [...(byChunk.get(r.chunk_id) ?? []), r.page]);
  for (const nums of byChunk.values()) expect(nums).toEqual(nums.map((_, i) => i));
  expect(pages.reduce((n, r) => n + r.rows_written, 0)).toBe(mints.length + trades.length + graduations);
  expect(Number((await t.db('history_backfill_chunks').whereNull('completed_at').count({ n: '*' }).first())!.n)).toBe(0);
}, 180_000);
