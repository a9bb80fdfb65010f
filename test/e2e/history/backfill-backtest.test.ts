import { execFile } from 'node:child_process';
import path from 'node:path';
import { PUMP_PROGRAM_ID } from '../../../clients/solana/pump/pump-idl';
import { startSolanaRpcServer, uniqueShiftDays, type SolanaRpcFake } from '../../fakes/solana-rpc-server';
import { createTestDatabase } from '../../support/test-db';
import { readTestEnv, ROOT, SHARED_DATA } from '../../support/test-env';
import { startWorker } from '../../support/worker-harness';

/**
 * `npm run backtest -- backfill:<from>..<to>` as an operator runs it: the script starts the range's backfill on
 * Temporal, a worker reads it from the local Solana node, the script draws the stored progress and then runs the
 * backtest on the stored events of the range.
 */
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let rpc: SolanaRpcFake;
let w: Awaited<ReturnType<typeof startWorker>>;
beforeAll(async () => {
  t = await createTestDatabase();
  rpc = await startSolanaRpcServer({ programId: PUMP_PROGRAM_ID, shiftDays: uniqueShiftDays() });
  w = await startWorker(t.db, { env: { PUMP_IDL_PATH: path.join(SHARED_DATA, 'idl', 'pump.json'), HISTORY_BACKFILL_RPC_URL: rpc.url } });
}, 60_000);
afterAll(async () => {
  await w.stop();
  await rpc.close();
  await t.drop();
});

const script = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const env = {
      ...process.env,
      DATABASE_URL: t.url,
      TEMPORAL_ADDRESS: readTestEnv().temporalAddress,
      TEMPORAL_TASK_QUEUE: w.taskQueue,
      HISTORY_BACKFILL_LAG_S: '0',
      HISTORY_BACKFILL_CHUNK_S: '10',
      HISTORY_BACKFILL_PAGE_SIZE: '25',
      LOG_LEVEL: 'warn',
    };
    execFile(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });

it('backfills the range with a progress bar, then backtests on what it stored', async () => {
  const txs = rpc.publish();
  const from = new Date(txs[0]!.blockTime * 1000).toISOString();
  const to = new Date((txs[txs.length - 1]!.blockTime + 1) * 1000).toISOString();
  const r = await script(['scripts/backtest.ts', `backfill:${from}..${to}`, '--min-corpus', '1']);
  expect(r.stderr).toMatch(/history-backfill:/);
  expect(r.stderr).toMatch(/100% \| chunks 3\/3 \| \d+ txs, \d+ launches, \d+ trades \| \d+ requests/);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('chain backfill');
  const mints = Number((await t.db('mints').where({ source: 'backfill' }).count({ n: '*' }).first())!.n);
  expect(mints).toBeGreaterThan(5);

  // The same range through `npm run backfill`: already complete, read again for nothing.
  const before = rpc.calls('getTransaction');
  const again = await script(['scripts/backfill.ts', '--from', from, '--to', to]);
  expect(again.code).toBe(0);
  expect(again.stdout).toMatch(new RegExp(`done: \\d+ transactions, ${mints} launches`));
  expect(rpc.calls('getTransaction')).toBe(before);
}, 180_000);
