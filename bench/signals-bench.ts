import { mintActivities } from '../activities/mint';
import { createApiKeyStore } from '../db/access/api-key-store';
import { createPriceStore } from '../db/market/price-store';
import { createLaunchEventStore } from '../db/mint/launch-event-store';
import { createPredictionStore } from '../db/mint/prediction-store';
import { seedSimulatedSmartWallets } from '../db/wallets/simulated-wallet-seed';
import { WSOL_MINT } from '../domain/market/native-coin';
import type { LaunchEvent } from '../domain/mint/launch-events';
import { RollingThreshold } from '../domain/signals/rolling-threshold';
import { SAMPLES_PER_MINT } from '../domain/signals/score-sampling';
import { createMarketSimulator } from '../ingest/simulator/market-simulator';
import { hashSeed, SeededRandom } from '../ingest/simulator/seeded-random';
import { simulatedSmartWallets } from '../ingest/simulator/simulated-smart-wallets';
import { loadConfig } from '../platform/config';
import { createLogger } from '../platform/logger';
import { freePort } from '../scripts/lib/local-temporal';
import { freshBenchDatabase } from './lib/bench-db';
import { machineLine, measure, spawnApi } from './lib/load';
import { startPacedLoad } from './lib/paced-load';

/**
 * `npm run bench:signals [-- seconds]` (default 150): the composite signal under a simulated market at 4 launches/s
 * with the simulator's smart wallets seeded, in real time.
 * 1. Lateness: the market is written as ingestion writes it, the live projector's refresh (which evaluates the
 *    signal) runs every 2 s, 60 s scores are logged as the lifecycle logs them, and one client polls
 *    /api/v1/signals every 100 ms (the API in its own process). For each signal: from the trade that made the
 *    cross (the mint's last trade at or before the cross) to the poll that first returned it, for signals whose
 *    tier was known at the cross; and from the moment the 60 s score was logged, for crosses that waited for it.
 * 2. Poll cost: 200 pollers each polling every second with their latest cursor (open loop), then the most one
 *    process answers (autocannon, 16 connections).
 * 3. Threshold memory: 24 simulated hours at 240 samples/s (4 launches/s × 60 samples per mint) into the sketch:
 *    retained heap, stored JSON, buckets and bins.
 */
const DURATION_S = Number(process.argv[2] ?? 150);
const LAUNCHES_PER_S = 4;
const SEED = 21;
const DB = 'launchpad_bench_signals';

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

async function latencyAndPolls() {
  const bench = await freshBenchDatabase(DB);
  const { db } = bench;
  const start = Date.now();
  await seedSimulatedSmartWallets(db, simulatedSmartWallets(SEED), new Date(start));
  await createPriceStore(db).recordQuote({ symbol: 'SOL', mint: WSOL_MINT, usd: 150, source: 'jupiter-price-v3', fetchedAt: new Date(start) });
  const key = await createApiKeyStore(db).issueKey({ tier: 'enterprise', customDailyQuota: 1_000_000_000, source: 'admin' });
  const api = await spawnApi(bench.url, await freePort(), { VALIDATE_RESPONSES: 'false', LOG_LEVEL: 'warn' });
  const headers = { 'x-api-key': key.plaintext };

  const events: LaunchEvent[] = [...createMarketSimulator({ seed: SEED, launchesPerSecond: LAUNCHES_PER_S }).events(start, start + DURATION_S * 1000)];
  const store = createLaunchEventStore(db);
  const predictions = createPredictionStore(db);
  const projector = mintActivities.create({ cfg: loadConfig({}), db, log: createLogger('silent', 'bench'), now: () => new Date() });
  const tradeWrites = new Map<string, { at: number; writtenAt: number }[]>();
  const created = new Map<string, number>();
  const scoredAt = new Map<string, number>();
  const seenAt = new Map<string, number>();
  const refreshMs: number[] = [];
  let running = true;

  const writer = async () => {
    let next = 0;
    while (running && next < events.length) {
      const now = Date.now();
      const due: LaunchEvent[] = [];
      while (next < events.length && events[next]!.at.getTime() <= now) due.push(events[next++]!);
      if (due.length) {
        await store.writeBatch(due);
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
  const refresher = async () => {
    while (running) {
      const t0 = Date.now();
      await projector.refreshLiveSnapshot();
      refreshMs.push(Date.now() - t0);
      await sleep(2000 - (Date.now() - t0));
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
  const loops = [writer(), refresher(), poller()];
  await sleep(DURATION_S * 1000);
  running = false;
  await Promise.all(loops);

  const rows = await db('composite_predictions').whereNotNull('tier').select('mint', 'crossed_at', 'tiered_at', 'tier');
  const atCross: number[] = [];
  const waited: number[] = [];
  for (const r of rows) {
    const seen = seenAt.get(r.mint);
    if (seen === undefined) continue;
    const crossedMs = r.crossed_at.getTime();
    if (r.tiered_at.getTime() === crossedMs) {
      const trades = (tradeWrites.get(r.mint) ?? []).filter((x) => x.at <= crossedMs);
      const last = trades[trades.length - 1];
      if (last) atCross.push(seen - last.writtenAt);
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

  // 2. Poll cost: 200 pollers, each once a second with its latest cursor.
  const load = startPacedLoad(
    Array.from({ length: 200 }, (_, i) => ({ name: `p${i}`, url: `${api.base}/api/v1/signals?since=${cursor}`, ratePerS: 1, headers })),
    { timeoutMs: 5000 },
  );
  const from = Date.now();
  await sleep(20_000);
  await load.stop();
  const polled = load.samples.filter((s) => s.sentAt >= from + 2000);
  const latencies = polled.filter((s) => s.outcome === 200).map((s) => s.doneAt - s.sentAt);
  const spanS = (Math.max(...polled.map((s) => s.sentAt)) - Math.min(...polled.map((s) => s.sentAt))) / 1000;
  // Let the backlog of the open-loop run drain before the closed-loop measures.
  await sleep(10_000);
  const max = await measure(`${api.base}/api/v1/signals?since=${cursor}`, { connections: 16, durationS: 8, headers });
  const floor = await measure(`${api.base}/api/health`, { connections: 16, durationS: 8 });
  await api.stop();
  await bench.stop();
  return {
    signals: rows.length,
    seen: seenAt.size,
    tiers,
    atCross,
    waited,
    refreshMs,
    crosses,
    withheld,
    threshold,
    smartMints,
    mints: created.size,
    poll: {
      rps: Math.round(latencies.length / spanS),
      p50: pct(latencies, 50),
      p99: pct(latencies, 99),
      outcomes: Object.entries(polled.reduce<Record<string, number>>((a, x) => ({ ...a, [String(x.outcome)]: (a[String(x.outcome)] ?? 0) + 1 }), {}))
        .map(([k, v]) => `${k}×${v}`)
        .join(' '),
    },
    max,
    floor,
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
  console.log(`\nbench:signals — ${machineLine()}, ${DURATION_S}s at ${LAUNCHES_PER_S} launches/s, refresh every 2 s, poll every 100 ms`);
  console.log(
    `${r.mints} launches, ${r.smartMints} bought by a smart wallet; ${r.crosses} crosses (${r.withheld} withheld), ${r.signals} signals delivered ${JSON.stringify(r.tiers)}, ${r.seen} seen by the poller; ` +
      `threshold ${r.threshold?.value?.toFixed(3)} (${r.threshold?.kind}, q ${r.threshold?.quantile}, ${r.threshold?.samples} samples)`,
  );
  console.log('| lateness | n | p50 ms | p99 ms |\n|---|---|---|---|');
  console.log(`| cross trade → in /api/v1/signals (tier known at the cross) | ${r.atCross.length} | ${f(pct(r.atCross, 50))} | ${f(pct(r.atCross, 99))} |`);
  console.log(`| 60 s score logged → in /api/v1/signals (cross waited for it) | ${r.waited.length} | ${f(pct(r.waited, 50))} | ${f(pct(r.waited, 99))} |`);
  console.log(`| live refresh (evaluation included) | ${r.refreshMs.length} | ${f(pct(r.refreshMs, 50))} | ${f(pct(r.refreshMs, 99))} |`);
  console.log(`poll cost, 200 pollers × 1/s: ${r.poll.rps} req/s answered, p50 ${f(r.poll.p50)} ms, p99 ${f(r.poll.p99)} ms (${r.poll.outcomes})`);
  console.log(`poll capacity, one API process, 16 connections: ${r.max.rps} req/s, p50 ${r.max.p50} ms, p99 ${r.max.p99} ms (${r.max.status})`);
  console.log(`the machine's floor, /api/health, 16 connections: ${r.floor.rps} req/s, p50 ${r.floor.p50} ms, p99 ${r.floor.p99} ms (${r.floor.status})`);
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
