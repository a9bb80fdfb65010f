import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { PUMP_PROGRAM_ID } from '../clients/solana/pump/pump-idl';
import { startDaemon } from '../scripts/lib/daemon-process';
import { freePort, startLocalTemporal } from '../scripts/lib/local-temporal';
import { waitFor } from '../scripts/lib/run';
import { startSolanaRpcServer } from '../test/fakes/solana-rpc-server';
import { SHARED_DATA } from '../test/support/test-env';
import type { HistoryBackfillProgress } from '../workflows/history/history-backfill-contract';
import { startHistoryBackfill } from '../workflows/history/history-backfill-starter';
import { freshBenchDatabase } from './lib/bench-db';
import { machineLine } from './lib/load';

/**
 * `npm run bench:backfill [-- <requests per second>]`: what one day of launchpad history costs to backfill. The
 * worker (a daemon, as in production) reads the recorded Helius session of the launchpad program from the local
 * Solana node in the real reply format, with production's page size; the figures per recorded transaction (RPC
 * requests, bytes stored) are then scaled to a day at the session's own transaction rate, the stated assumption.
 */
const root = path.resolve(__dirname, '..');
const work = path.join(root, '.cache', 'bench');
const RPS = Number(process.argv[2] ?? 50);
const TABLES = ['mints', 'trades', 'mint_graduations', 'history_backfill_pages', 'history_backfill_chunks'];

async function main() {
  fs.mkdirSync(work, { recursive: true });
  const bench = await freshBenchDatabase('history_backfill_bench');
  const temporalDb = path.join(work, 'temporal-backfill-bench.db');
  fs.rmSync(temporalDb, { force: true });
  const temporal = await startLocalTemporal({ port: await freePort(), dbFile: temporalDb, logFile: path.join(work, 'temporal-backfill.log') });
  const rpc = await startSolanaRpcServer({ programId: PUMP_PROGRAM_ID });
  const txs = rpc.publish();
  const env = {
    DATABASE_URL: bench.url,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE: 'bench-backfill',
    WORKER_METRICS_PORT: '0',
    NODE_ENV: 'production',
    DEMO_MODE: 'true',
    PRICE_SOURCE_URL: 'http://127.0.0.1:9/unreachable',
    HYPERLIQUID_API_URL: 'http://127.0.0.1:9/unreachable',
    HYPERLIQUID_WS_URL: 'ws://127.0.0.1:9/unreachable',
    DRIFT_DATA_URL: 'http://127.0.0.1:9/unreachable',
    PUMP_IDL_PATH: path.join(SHARED_DATA, 'idl', 'pump.json'),
    HISTORY_BACKFILL_RPC_URL: rpc.url,
    // Only the range started here: no backfill of the last day on the worker's first start.
    HISTORY_BACKFILL_ON_START_H: '0',
    HISTORY_BACKFILL_REQUESTS_PER_S: String(RPS),
  };
  const worker = startDaemon('workers/main-worker.ts', env);
  const client = new Client({ connection: await Connection.connect({ address: temporal.address }) });
  try {
    await waitFor('the worker', async () => !!(await bench.db('daemon_heartbeats').where({ name: 'worker' }).first()), 120_000);
    const sizeBefore = await tableBytes(bench.db);
    const fromMs = txs[0]!.blockTime * 1000;
    const toMs = (txs[txs.length - 1]!.blockTime + 1) * 1000;
    const started = performance.now();
    const h = await startHistoryBackfill(client, 'bench-backfill', { fromMs, toMs, chunkS: 3600, pageSize: 1000 });
    const p = (await h.result()) as HistoryBackfillProgress;
    const seconds = (performance.now() - started) / 1000;
    const bytes = (await tableBytes(bench.db)) - sizeBefore;

    const spanS = txs[txs.length - 1]!.blockTime - txs[0]!.blockTime + 1;
    const perDay = 86_400 / spanS;
    const requests = rpc.calls('getSignaturesForAddress') + rpc.calls('getTransaction');
    const failed = txs.filter((x) => x.err !== null).length;
    console.log(`machine: ${machineLine()}`);
    console.log(
      `recorded session: ${txs.length} program transactions (${failed} failed) over ${spanS} s of chain time = ${(txs.length / spanS).toFixed(2)} tx/s`,
    );
    console.log(
      `backfill of it: ${requests} requests (${rpc.calls('getSignaturesForAddress')} getSignaturesForAddress, ${rpc.calls('getTransaction')} getTransaction), ${p.totals.launches} launches, ${p.totals.trades} trades, ${(bytes / 1024).toFixed(0)} KiB of rows in Postgres (indexes not counted), ${seconds.toFixed(1)} s at ${RPS} requests/s`,
    );
    const day = { txs: txs.length * perDay, requests: Math.ceil((txs.length * perDay) / 1000) + (txs.length - failed) * perDay, bytes: bytes * perDay };
    console.log(`one day at that rate: ${fmt(day.txs)} transactions, ${fmt(day.requests)} requests, ${(day.bytes / 2 ** 30).toFixed(2)} GiB of rows`);
    for (const rps of [10, 50, 200]) console.log(`  at ${rps} requests/s: ${(day.requests / rps / 3600).toFixed(1)} h per day of history`);
  } finally {
    await client.connection.close();
    await worker.kill();
    await rpc.close();
    await temporal.stop();
    await bench.db.destroy();
    await bench.stop();
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/**
 * Bytes of the stored rows (tuple data plus the 28 B of header and line pointer each): a table of a few hundred rows
 * occupies whole 8 KiB pages, which would say nothing about a day. Indexes are not included.
 */
async function tableBytes(db: Awaited<ReturnType<typeof freshBenchDatabase>>['db']): Promise<number> {
  let n = 0;
  for (const t of TABLES) {
    const r = await db.raw(`SELECT coalesce(sum(pg_column_size(x.*) + 28), 0)::bigint AS n FROM ${t} x`);
    n += Number(r.rows[0].n);
  }
  return n;
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
