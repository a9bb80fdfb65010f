import os from 'node:os';
import path from 'node:path';
import { createApiKeyStore } from '../db/access/api-key-store';
import { createPriceStore } from '../db/market/price-store';
import { createLaunchEventStore } from '../db/mint/launch-event-store';
import { createPredictionStore } from '../db/mint/prediction-store';
import { seedSimulatedSmartWallets } from '../db/wallets/simulated-wallet-seed';
import { WSOL_MINT } from '../domain/market/native-coin';
import type { LaunchEvent } from '../domain/launch/launch-events';
import { RollingThreshold } from '../domain/signals/rolling-threshold';
import { SAMPLES_PER_MINT } from '../domain/signals/score-sampling';
import { createMarketSimulator } from '../ingest/simulator/market-simulator';
import { hashSeed, SeededRandom } from '../ingest/simulator/seeded-random';
import { simulatedSmartWallets } from '../ingest/simulator/simulated-smart-wallets';
import { loadConfig } from '../platform/config';
import { freePort } from '../scripts/lib/local-temporal';
import { LIVE_PROJECTOR_WORKFLOW_ID } from '../workflows/live/live-projector-contract';
import { createLiveProjectorWaker } from '../workflows/live/live-projector-starter';
import { activityTimings } from './lib/activity-timings';
import { startBenchWorker } from './lib/bench-worker';
import { freshBenchDatabase } from './lib/bench-db';
import { machineLine, measure, spawnApi } from './lib/load';
import { pollCostAgainstBare } from './lib/poll-cost';

/**
 * `npm run bench:signals [-- seconds]` (default 150): the composite signal under a simulated market at 4 launches/s
 * with the simulator's smart wallets seeded, in real time, on the production path.
 * 1. Lateness: the real worker process (workers/main-worker.ts, its own Temporal dev server) runs the live projector
 *    workflow, refreshing every 2 s; the market is written as ingestion writes it, and after each committed batch
 *    with trades the live projector is woken as the ingest pipeline wakes it (`createLiveProjectorWaker`, the
 *    default spacing); 60 s scores are logged as the lifecycle logs them; one client polls /api/v1/signals every
 *    100 ms (the API in its own process). For each signal: from the commit of the trade that made the cross (the
 *    mint's last trade committed before the cross) to the poll that first returned it, for signals whose tier was known
 *    at the cross and made by that trade (its score then reached the threshold then in force); from the refresh that
 *    made it, for a cross made by a refresh lowering the threshold under a mint's score (the threshold each refresh
 *    left is in its result in the history); and from the moment the 60 s score was logged, for crosses that waited
 *    for it. The projector's activities are timed from its Temporal history (scheduled → completed).
 * 2. Poll cost: 200 pollers, each with its own Builder key, polling once a second with the latest cursor (open
 *    loop, phases spread over the second), against the API and then against a bare Node http server serving the
 *    same bytes (the reference); then the most one API process answers (autocannon, 16 connections) and
 *    /api/health beside it.
 * 3. Threshold memory: 24 simulated hours at 240 samples/s (4 launches/s × 60 samples per mint) into the sketch:
 *    retained heap, stored JSON, buckets and bins.
 */
const DURATION_S = Number(process.argv[2] ?? 150);
/** BENCH_WAKE=0: no wakes, the refresh alone evaluates (the design before trade-driven evaluation), for comparison. */
const WAKE = process.env.BENCH_WAKE !== '0';
const LAUNCHES_PER_S = 4;
const POLLERS = 200;
const SEED = 21;
const DB = 'launchpad_bench_signals';
const TASK_QUEUE = 'bench-signals';
const work = path.resolve(__dirname, '..', '.data', 'bench-signals');

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

async function latencyAndPolls() {
  const bench = await freshBenchDatabase(DB);
  const { db } = bench;
  const start = Date.now();
  await seedSimulatedSmartWallets(db, simulatedSmartWallets(SEED), new Date(start));
  await createPriceStore(db).recordQuote({ symbol: 'SOL', mint: WSOL_MINT, usd: 150, source: 'jupiter-price-v3', fetchedAt: new Date(start) });
  const keys = createApiKeyStore(db);
  const key = await keys.issueKey({ tier: 'enterprise', customDailyQuota: 1_000_000_000, source: 'admin' });
  const planExpiresAt = new Date(start + 30 * 86_400_000);
  const pollerKeys: string[] = [];
  for (let i = 0; i < POLLERS; i++) pollerKeys.push((await keys.issueKey({ tier: 'builder', planExpiresAt, source: 'admin' })).plaintext);
  const api = await spawnApi(bench.url, await freePort(), { VALIDATE_RESPONSES: 'false', LOG_LEVEL: 'warn' });
  const headers = { 'x-api-key': key.plaintext };
  const worker = await startBenchWorker({ databaseUrl: bench.url, workDir: work, taskQueue: TASK_QUEUE, env: { LIVE_REFRESH_MS: '2000' } });
  const waker = createLiveProjectorWaker(worker.client, { minSpacingMs: loadConfig({}).signals.wakeMinSpacingMs });

  const t0 = Date.now();
  const events: LaunchEvent[] = [...createMarketSimulator({ seed: SEED, launchesPerSecond: LAUNCHES_PER_S }).events(t0, t0 + DURATION_S * 1000)];
  const store = createLaunchEventStore(db);
  const predictions = createPredictionStore(db);
  const tradeWrites = new Map<string, { at: number; writtenAt: number }[]>();
  const created = new Map<string, number>();
  const scoredAt = new Map<string, number>();
  const seenAt = new Map<string, number>();
  let running = true;

  const writer = async () => {
    let next = 0;
    while (running && next < events.length) {
      const now = Date.now();
      const due: LaunchEvent[] = [];
      while (next < events.length && events[next]!.at.getTime() <= now) due.push(events[next++]!);
      if (due.length) {
        const r = await store.writeBatch(due);
        // What the ingest pipeline does after its commit (ingest/pipeline/ingest-pipeline.ts `tradesDurable`).
        if (r.tradesInserted > 0 && WAKE) waker.wake();
        const writtenAt = Date.now();
        for (const e of due) {
          if (e.kind === 'create' && !e.mayhem) created.set(e.mint, e.at.getTime());
          if (e.kind === 'trade') {
            const xs = tradeWrites.get(e.mint) ?? [];
            xs.push({ at: e.at.getTime(), writtenAt });
            tradeWrites.set(e.mint, xs);
          }
        }
      }
      // The lifecycle's 60 s score (the k-NN itself is benchmarked by bench:score), spread over the tiers.
      for (const [mint, at] of created) {
        if (scoredAt.has(mint) || now - at < 60_000) continue;
        const gp = [0.4, 0.18, 0.03][hashSeed(SEED, mint) % 3]!;
        await predictions.insertOnce({
          ...{ mint, ageBucket: 60, asOf: new Date(at + 60_000), predictedAt: new Date(), gradProb: gp, rawProb: gp, modelVersion: 'bench' },
          ...{
            features: {},
            calibration: {},
            priceSol: 1e-8,
            rugProb: null,
            runnerOdds: null,
            survivalProb: null,
            modelVersions: {},
            rugFeatures: {},
            context: {},
          },
        });
        scoredAt.set(mint, Date.now());
      }
      await sleep(100);
    }
  };
  const poller = async () => {
    let since = 0;
    while (running) {
      const r = await fetch(`${api.base}/api/v1/signals?since=${since}&limit=500`, { headers });
      const body = (await r.json()) as { cursor: number; signals: { mint: string }[] };
      const at = Date.now();
      for (const s of body.signals) if (!seenAt.has(s.mint)) seenAt.set(s.mint, at);
      since = body.cursor;
      await sleep(100);
    }
  };
  const loadDuring = load();
  const loops = [writer(), poller()];
  await sleep(DURATION_S * 1000);
  running = false;
  await Promise.all(loops);
  waker.stop();
  const timings = await activityTimings(worker.client, LIVE_PROJECTOR_WORKFLOW_ID);
  await worker.stop();

  const rows = await db('composite_predictions')
    .whereNotNull('tier')
    .select('mint', 'crossed_at', 'tiered_at', 'tier', 'mint_created_at', 'age_s', 'composite_score');
  // The threshold each refresh left (from its result in the projector's history), in completion order.
  // Keyed by the evaluation's own time (in the result), not the activity's completion.
  const refreshes = (timings.completions.get('refreshLiveSnapshot') ?? []).flatMap((c) => {
    const composite = (c.result as { composite?: { at: number; threshold: number | null } | null } | undefined)?.composite;
    return composite ? [{ at: composite.at, threshold: composite.threshold }] : [];
  });
  const thresholdBefore = (atMs: number) => {
    let t: number | null = null;
    for (const x of refreshes) if (x.at <= atMs) t = x.threshold;
    return t;
  };
  const atCross: number[] = [];
  // Crosses the threshold made: at the mint's last trade its score was below the threshold then in force (null:
  // none yet), and a later refresh lowered the threshold under it; such a cross follows no trade, so its lateness is
  // counted from the refresh that made it (crossed_at) to the poll that saw it. Approximate: "then in force" is the
  // reading of the last refresh before the trade; a woken evaluation reads the same sketch at its own time, which the
  // window's expiry can move slightly.
  const byThreshold: number[] = [];
  // The two halves of each at-cross lateness: trade committed → the evaluation that crossed (crossed_at), and
  // crossed_at → first seen by the poller; a cross made at a refresh rather than at a wake shows in the first.
  const toCross: number[] = [];
  const toSeen: number[] = [];
  const waited: number[] = [];
  for (const r of rows) {
    const seen = seenAt.get(r.mint);
    if (seen === undefined) continue;
    const crossedMs = r.crossed_at.getTime();
    if (r.tiered_at.getTime() === crossedMs) {
      // The mint's last trade committed before the evaluation that crossed: every commit wakes an evaluation, so an
      // earlier trade would have crossed at an earlier one (unless the spacing coalesced them: then this is a lower bound).
      const trades = (tradeWrites.get(r.mint) ?? []).filter((x) => x.writtenAt <= crossedMs);
      const last = trades[trades.length - 1];
      if (last) {
        // The score at the trade: the same smart money and peak, fresher (score ∝ 1 / (1 + age_s / 600)).
        const ageAtTradeS = Math.max(1, (last.writtenAt - r.mint_created_at.getTime()) / 1000);
        const scoreAtTrade = (r.composite_score * (1 + r.age_s / 600)) / (1 + ageAtTradeS / 600);
        const then = thresholdBefore(last.writtenAt);
        if (then === null || scoreAtTrade < then) {
          byThreshold.push(seen - crossedMs);
          continue;
        }
        atCross.push(seen - last.writtenAt);
        toCross.push(crossedMs - last.writtenAt);
        toSeen.push(seen - crossedMs);
      }
    } else if (scoredAt.has(r.mint)) waited.push(seen - Math.max(scoredAt.get(r.mint)!, crossedMs));
  }
  const tiers = Object.fromEntries(['ACT', 'WATCH', 'SCOUT'].map((t) => [t, rows.filter((r) => r.tier === t).length]));
  const cursor = Number((await db('signals').max('cursor as c').first())?.c ?? 0);
  const crosses = Number((await db('composite_predictions').count('* as n').first())?.n ?? 0);
  const withheld = Number((await db('composite_withheld').count('* as n').first())?.n ?? 0);
  const state = await db('composite_threshold_state').first();
  const threshold = state ? RollingThreshold.deserialize(state.state).threshold(Date.now()) : null;
  const smartMints = Number(
    (await db.raw(`SELECT count(DISTINCT t.mint) AS n FROM trades t JOIN wallet_records w ON w.wallet = t.trader WHERE t.is_buy`)).rows[0].n,
  );
  await db.destroy();

  // 2. Poll cost: the pollers with their latest cursor, against the API and against the bare reference.
  const loadPolls = load();
  const poll = await pollCostAgainstBare({ apiBase: api.base, path: `/api/v1/signals?since=${cursor}`, keys: pollerKeys, durationS: 20, workDir: work });
  // Let any backlog drain before the closed-loop measures.
  await sleep(5_000);
  const max = await measure(`${api.base}/api/v1/signals?since=${cursor}`, { connections: 16, durationS: 8, headers });
  const floor = await measure(`${api.base}/api/health`, { connections: 16, durationS: 8 });
  await api.stop();
  await bench.stop();
  return {
    signals: rows.length,
    seen: seenAt.size,
    tiers,
    atCross,
    byThreshold,
    toCross,
    toSeen,
    waited,
    timings,
    crosses,
    withheld,
    threshold,
    smartMints,
    mints: created.size,
    poll,
    max,
    floor,
    loadDuring,
    loadPolls,
  };
}

function thresholdMemory() {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const t = new RollingThreshold();
  const rng = new SeededRandom(5);
  const perS = LAUNCHES_PER_S * SAMPLES_PER_MINT;
  const t0 = Date.UTC(2026, 10, 1);
  const started = process.hrtime.bigint();
  let n = 0;
  for (let s = 0; s < 86_400; s++) {
    for (let k = 0; k < perS; k++) {
      // About 8% of mint-moments have smart money; their scores spread over two orders of magnitude.
      t.add(rng.float() < 0.08 ? rng.lognormal(1.5, 0.8) : 0, t0 + s * 1000 + (k * 1000) / perS);
      n++;
    }
  }
  const ns = Number(process.hrtime.bigint() - started) / n;
  const reading = t.threshold(t0 + 86_400_000);
  gc?.();
  const heap = process.memoryUsage().heapUsed - before;
  const json = JSON.stringify(t.serialize()).length;
  return { samples: n, heap, json, size: t.size(), ns, reading, gcExposed: gc !== undefined };
}

async function main() {
  const mem = thresholdMemory();
  const r = await latencyAndPolls();
  const f = (x: number) => (Number.isFinite(x) ? String(Math.round(x)) : 'n/a');
  const act = (name: string) => r.timings.durationsMs.get(name) ?? [];
  console.log(
    `\nbench:signals — ${machineLine()}, ${DURATION_S}s at ${LAUNCHES_PER_S} launches/s, refresh every 2 s, ${WAKE ? 'woken by committed trades' : 'NOT woken (BENCH_WAKE=0)'}, poll every 100 ms`,
  );
  console.log(`load average (1/5/15 min) at the start of the market: ${r.loadDuring}; at the start of the poll phase: ${r.loadPolls}; at the end: ${load()}`);
  console.log(
    `${r.mints} launches, ${r.smartMints} bought by a smart wallet; ${r.crosses} crosses (${r.withheld} withheld), ${r.signals} signals delivered ${JSON.stringify(r.tiers)}, ${r.seen} seen by the poller; ` +
      `threshold ${r.threshold?.value?.toFixed(3)} (${r.threshold?.kind}, q ${r.threshold?.quantile}, ${r.threshold?.samples} samples)`,
  );
  console.log('| lateness | n | p50 ms | p99 ms |\n|---|---|---|---|');
  console.log(
    `| cross trade committed → in /api/v1/signals (tier known at the cross; the trade made it) | ${r.atCross.length} | ${f(pct(r.atCross, 50))} | ${f(pct(r.atCross, 99))} |`,
  );
  console.log(`|   of which trade committed → crossed_at | ${r.toCross.length} | ${f(pct(r.toCross, 50))} | ${f(pct(r.toCross, 99))} |`);
  console.log(`|   of which crossed_at → in /api/v1/signals | ${r.toSeen.length} | ${f(pct(r.toSeen, 50))} | ${f(pct(r.toSeen, 99))} |`);
  console.log(
    `| cross made by a refresh lowering the threshold: crossed_at → in /api/v1/signals | ${r.byThreshold.length} | ${f(pct(r.byThreshold, 50))} | ${f(pct(r.byThreshold, 99))} |`,
  );
  console.log(`| 60 s score logged → in /api/v1/signals (cross waited for it) | ${r.waited.length} | ${f(pct(r.waited, 50))} | ${f(pct(r.waited, 99))} |`);
  for (const name of ['refreshLiveSnapshot', 'evaluateNewTrades'])
    console.log(`| ${name}, scheduled → completed | ${act(name).length} | ${f(pct(act(name), 50))} | ${f(pct(act(name), 99))} |`);
  console.log(`wakes signalled: ${r.timings.signals.get('tradesIngested') ?? 0}; activities failed: ${JSON.stringify(Object.fromEntries(r.timings.failed))}`);
  const p = (x: { okPerS: number; p50: number; p99: number; outcomes: string }) =>
    `${f(x.okPerS)} req/s answered 200, p50 ${f(x.p50)} ms, p99 ${f(x.p99)} ms (${x.outcomes})`;
  console.log(`poll cost, ${POLLERS} pollers × 1/s, own Builder keys, ${r.poll.bytes} B answer: API ${p(r.poll.api)}`);
  console.log(`  the same pollers sharing one key: ${p(r.poll.shared)}`);
  console.log(`  reference, the same pollers against a bare Node http server serving the same bytes: ${p(r.poll.bare)}`);
  console.log(`poll capacity, one API process, 16 connections: ${r.max.rps} req/s, p50 ${r.max.p50} ms, p99 ${r.max.p99} ms (${r.max.status})`);
  console.log(`/api/health, 16 connections: ${r.floor.rps} req/s, p50 ${r.floor.p50} ms, p99 ${r.floor.p99} ms (${r.floor.status})`);
  console.log(
    `threshold after 24 simulated hours: ${(mem.samples / 1e6).toFixed(1)}M samples, ${mem.size.buckets} buckets / ${mem.size.bins} bins, ` +
      `heap ${mem.gcExposed ? `${(mem.heap / 2 ** 20).toFixed(2)} MiB` : 'n/a (run with --expose-gc)'}, state JSON ${(mem.json / 1024).toFixed(0)} KiB, ` +
      `${mem.ns.toFixed(0)} ns/sample, P90 ${mem.reading.value?.toFixed(3)} (${mem.reading.kind})`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
