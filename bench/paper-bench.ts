import fs from 'node:fs';
import path from 'node:path';
import { startDaemon } from '../scripts/lib/daemon-process';
import { freePort, startLocalTemporal } from '../scripts/lib/local-temporal';
import { sleep, waitFor } from '../scripts/lib/run';
import { createLaunchEventStore } from '../db/mint/launch-event-store';
import type { CreateEvent, TradeEvent } from '../domain/launch/launch-events';
import { confidenceBand } from '../domain/scoring/confidence-band';
import { benchDatabase } from './lib/bench-postgres';
import { quantiles } from './lib/process-stats';
import { cpuSeconds, machineNow, postgresCpuSeconds, postgresPids, rssMiB } from './lib/proc-stat';

/**
 * `npm run bench:paper [-- positions [tradesPerS [seconds]]]`: what 1,000 open paper positions cost while the market
 * trades at the ingest replay's rate (393 trades/s, `bench:ingest`). Against a Temporal dev server and the real
 * worker process (workers/main-worker.ts, production settings but PAPER_BANKROLL_SOL large enough for every entry):
 * `positions` mints get a 0.75 score, the worker's entry loop enters gp70 on each and starts its position workflow,
 * and the worker's pricer (paper-pricer-workflow.ts) prices them all once per PAPER_TICK_MS;
 * then for `seconds` the bench writes trades on those mints at `tradesPerS` through the ingest store (small buys and
 * sales, so no exit fires) while it samples every position's last stored quote once a second.
 *
 * - tick cost: worker, Temporal and Postgres CPU seconds over the window ÷ the position ticks that ran (marks written,
 *   counted from Postgres's row updates of paper_positions: the pricer marks every open position each round);
 * - position lateness: at each sample, how old each position's stored quote is beyond one tick interval (0 = priced
 *   on time); p50 / p99 / max over positions × samples;
 * - memory: worker, Temporal and Postgres RSS at the end, and the worker's growth from before the entries.
 */
const [POSITIONS = 1000, TRADES_PER_S = 393, SECONDS = 120] = process.argv.slice(2).map(Number);
const TICK_MS = 5000;
const root = path.resolve(__dirname, '..');
const work = path.join(root, '.cache', 'bench', 'paper');
const TASK_QUEUE = 'bench-paper';

async function main() {
  const machine = machineNow();
  fs.mkdirSync(work, { recursive: true });
  const bench = await benchDatabase('launchpad_bench_paper');
  const { db } = bench;
  const temporalDb = path.join(work, 'temporal.db');
  for (const f of fs.readdirSync(work).filter((f) => f.startsWith('temporal.db'))) fs.rmSync(path.join(work, f));
  const temporal = await startLocalTemporal({ port: await freePort(), dbFile: temporalDb, logFile: path.join(work, 'temporal.log') });
  const worker = startDaemon('workers/main-worker.ts', {
    DATABASE_URL: bench.url,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE: TASK_QUEUE,
    WORKER_METRICS_PORT: String(await freePort()),
    NODE_ENV: 'production',
    DEMO_MODE: 'true',
    LOG_LEVEL: 'warn',
    EXPECTED_DAEMONS: 'worker',
    PRICE_SOURCE_URL: 'http://127.0.0.1:9/unreachable',
    PAPER_TICK_MS: String(TICK_MS),
    PAPER_BANKROLL_SOL: String(POSITIONS),
    PAPER_TIMEOUT_S: '86400',
    PAPER_STALE_AFTER_S: '86400',
    PAPER_ENTRY_MAX_DELAY_S: '3600',
  });
  const store = createLaunchEventStore(db);
  try {
    await waitFor(
      'the worker',
      async () => !!(await db('daemon_heartbeats').where({ name: 'worker' }).first()),
      180_000,
      () => (worker.child.exitCode !== null ? `the worker exited: ${worker.output().slice(-2000)}` : undefined),
    );
    const workerRssBefore = rssMiB(worker.child.pid!);

    // The mints: created 30 s ago with one buy each, then a 0.75 score now (gp70 enters, gp80 and gp90 do not).
    const now = Date.now();
    const curves = new Map<string, { vSol: number; vTok: number }>();
    const creates: CreateEvent[] = [];
    // Unique base58 strings: the number's digits as letters, closed by an X, padded with 1s.
    const b58 = (n: number, len: number, tag: string) =>
      (tag + n.toString().replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!) + 'X' + '1'.repeat(len)).slice(0, len);
    for (let i = 0; i < POSITIONS; i++) {
      const mint = b58(i, 44, 'PaperBench');
      creates.push({
        kind: 'create',
        signature: b58(i, 88, 'PaperBenchSig'),
        ordinal: 0,
        slot: 1,
        at: new Date(now - 30_000),
        source: 'bench',
        mint,
        name: `Bench ${i}`,
        symbol: 'BNCH',
        uri: 'https://example.invalid/b.json',
        bondingCurve: b58(i, 44, 'PaperBenchCurve'),
        creator: b58(i, 44, 'PaperBenchCreator'),
        mayhem: false,
        vSolLamports: 30_000_000_000,
        vTokensRaw: 1_073_000_000_000_000,
      });
      curves.set(mint, { vSol: 30_000_000_000, vTok: 1_073_000_000_000_000 });
    }
    let seq = 0;
    const trade = (mint: string, sol: number, at: Date): TradeEvent => {
      const c = curves.get(mint)!;
      const k = BigInt(c.vSol) * BigInt(c.vTok);
      c.vSol += sol;
      const vTok = Number(k / BigInt(c.vSol));
      const tokens = Math.abs(c.vTok - vTok);
      c.vTok = vTok;
      seq++;
      return {
        kind: 'trade',
        signature: b58(seq, 88, 'PaperBenchTrade'),
        ordinal: 0,
        slot: 2 + seq,
        at,
        source: 'bench',
        mint,
        trader: b58(seq % 5000, 44, 'PaperBenchTrader'),
        isBuy: sol > 0,
        solLamports: Math.abs(sol),
        tokensRaw: tokens,
        vSolLamports: c.vSol,
        vTokensRaw: c.vTok,
      };
    };
    for (let i = 0; i < creates.length; i += 500) {
      const batch = creates.slice(i, i + 500);
      await store.writeBatch([...batch, ...batch.map((c) => trade(c.mint, 2_000_000_000, new Date(now - 20_000)))]);
    }
    const entryStart = Date.now();
    const asOf = new Date();
    for (let i = 0; i < creates.length; i += 500) {
      await db('predictions').insert(
        creates.slice(i, i + 500).map((c) => ({
          mint: c.mint,
          age_bucket: 30,
          as_of: asOf,
          predicted_at: asOf,
          grad_prob: 0.75,
          raw_prob: 0.75,
          model_version: 'bench',
          features: '{}',
          calibration: JSON.stringify({ age_bucket: 30, confidence_band: confidenceBand(0.75), n: 0, historical_actual_rate: null, model_version: 'bench' }),
          price_sol: 0,
        })),
      );
    }
    console.log(`bench:paper — ${POSITIONS} scores logged; waiting for the entry loop to open and start every position …`);
    await waitFor(
      'every position started',
      async () => Number((await db('paper_positions').whereNotNull('workflow_started_at').count('* as n').first())!.n) >= POSITIONS,
      600_000,
    );
    const entrySeconds = (Date.now() - entryStart) / 1000;
    // One full tick interval so every workflow has run its first tick.
    await sleep(TICK_MS + 2000);

    const updates = async () => Number((await db.raw(`SELECT n_tup_upd FROM pg_stat_user_tables WHERE relname = 'paper_positions'`)).rows[0].n_tup_upd);
    const pids = { worker: worker.child.pid!, temporal: temporal.process!.pid! };
    const cpu0 = { worker: cpuSeconds(pids.worker), temporal: cpuSeconds(pids.temporal), postgres: postgresCpuSeconds(bench.dataDir) };
    const upd0 = await updates();
    const t0 = Date.now();
    const mints = creates.map((c) => c.mint);
    const lateness: number[] = [];
    let written = 0;
    let nextSample = t0 + 1000;
    console.log(`  ${POSITIONS} open; trading ${TRADES_PER_S}/s on them for ${SECONDS} s …`);
    while (Date.now() - t0 < SECONDS * 1000) {
      const due = Math.floor(((Date.now() - t0) / 1000) * TRADES_PER_S) - written;
      if (due > 0) {
        const at = new Date();
        // Small buys and sales around the entry price: the mark moves, no exit fires.
        const batch = Array.from({ length: due }, (_, j) =>
          trade(mints[(written + j) % mints.length]!, (written + j) % 2 === 0 ? 50_000_000 : -50_000_000, at),
        );
        await store.writeBatch(batch);
        written += due;
      }
      if (Date.now() >= nextSample) {
        nextSample += 1000;
        const rows = await db('paper_positions').where({ state: 'open' }).select('last_quote_at');
        const at = Date.now();
        for (const r of rows) lateness.push(Math.max(0, (at - r.last_quote_at.getTime() - TICK_MS) / 1000));
      }
      await sleep(50);
    }
    const seconds = (Date.now() - t0) / 1000;
    const ticks = (await updates()) - upd0;
    const cpu = {
      worker: cpuSeconds(pids.worker) - cpu0.worker,
      temporal: cpuSeconds(pids.temporal) - cpu0.temporal,
      postgres: postgresCpuSeconds(bench.dataDir) - cpu0.postgres,
    };
    const open = Number((await db('paper_positions').where({ state: 'open' }).count('* as n').first())!.n);
    const pgRss = postgresPids(bench.dataDir).reduce((s, p) => s + rssMiB(p), 0);
    const ms = (s: number) => ((s / ticks) * 1000).toFixed(2);

    console.log(
      `\nbench:paper — ${machine.cores} cores (${machine.cpu}), ${machine.memGiB} GiB; load average before ${machine.load}, after ${machineNow().load}`,
    );
    console.log(`worker workers/main-worker.ts NODE_ENV=production, PAPER_TICK_MS=${TICK_MS}; Temporal dev server (SQLite file, started here)`);
    console.log('\n| figure | value |\n|---|---|');
    console.log(`| positions opened and started by the entry loop | ${POSITIONS} in ${entrySeconds.toFixed(1)} s |`);
    console.log(`| trades written on their mints | ${written} in ${seconds.toFixed(0)} s (${(written / seconds).toFixed(0)}/s) |`);
    console.log(
      `| position ticks (marks stored) | ${ticks} (${(ticks / seconds).toFixed(0)}/s; ${POSITIONS} positions every ${TICK_MS / 1000} s would be ${((POSITIONS * 1000) / TICK_MS).toFixed(0)}/s) |`,
    );
    console.log(`| open at the end | ${open} |`);
    console.log(`| CPU per tick: worker / Temporal / Postgres | ${ms(cpu.worker)} / ${ms(cpu.temporal)} / ${ms(cpu.postgres)} ms |`);
    console.log(
      `| CPU over the window: worker / Temporal / Postgres | ${cpu.worker.toFixed(1)} / ${cpu.temporal.toFixed(1)} / ${cpu.postgres.toFixed(1)} s of ${seconds.toFixed(0)} s |`,
    );
    console.log(
      `| position lateness (stored quote's age beyond one tick) p50 / p99 / max | ${quantiles(lateness, 0.5).toFixed(2)} / ${quantiles(lateness, 0.99).toFixed(2)} / ${lateness.reduce((a, b) => Math.max(a, b), 0).toFixed(2)} s (${lateness.length} samples) |`,
    );
    console.log(
      `| RSS at the end: worker / Temporal / Postgres | ${rssMiB(pids.worker).toFixed(0)} (${(rssMiB(pids.worker) - workerRssBefore).toFixed(0)} more than before the entries) / ${rssMiB(pids.temporal).toFixed(0)} / ${pgRss.toFixed(0)} MiB |`,
    );
  } finally {
    await worker.kill();
    await temporal.stop();
    for (const f of fs.readdirSync(work).filter((f) => f.startsWith('temporal.db'))) fs.rmSync(path.join(work, f));
    await db.destroy();
    await bench.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
