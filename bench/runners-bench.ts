import { createLiveTick } from '../activities';
import { createPriceStore } from '../db/market/price-store';
import { createLaunchEventStore } from '../db/mint/launch-event-store';
import { createRunnerNowStore } from '../db/mint/runner-now-store';
import type { CreateEvent, LaunchEvent, TradeEvent } from '../domain/launch/launch-events';
import { WSOL_MINT } from '../domain/market/native-coin';
import { LABEL_VERSION } from '../domain/launch/outcome-labels';
import { runnerObservations } from '../domain/scoring/runner-grid';
import { createMarketSimulator } from '../ingest/simulator/market-simulator';
import { createRunnerNowScorer } from '../models/mint/runner-now-scorer';
import { loadConfig } from '../platform/config';
import { createLogger } from '../platform/logger';
import { freshBenchDatabase } from './lib/bench-db';
import { machineLine } from './lib/load';

/**
 * `npm run bench:runners [-- refreshes]`: what asking the from-now runner model for every live mint adds to the live
 * refresh. Two projectors over the same database and the same ≥ 500 live mints, one without the model and one with
 * it, refreshed alternately in one run (so machine noise falls on both alike) while the market trades on; each
 * refresh's wall time, and the model's own share (the from-now answers for every tracked mint) timed apart. The
 * corpus is synthetic: grid rows of simulated launches labelled by the production code, enough for every grid age to
 * be live.
 */
const REFRESHES = Number(process.argv[2] ?? 40);
const DB = 'launchpad_bench_runners';
const HISTORY_H = 3;
/** The production refresh period (LIVE_REFRESH_MS). */
const STEP_MS = 2000;

const pct = (xs: readonly number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
};
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const f2 = (x: number) => x.toFixed(2);

async function main() {
  const bench = await freshBenchDatabase(DB);
  const { db } = bench;
  const now = Date.now();
  const log = createLogger('silent', 'bench');

  // Synthetic history: launches of the HISTORY_H hours before the live window, labelled at a 2 h horizon.
  const history = new Map<string, { create: CreateEvent; trades: TradeEvent[]; graduatedAt: Date | null }>();
  for (const e of createMarketSimulator({ seed: 9, launchesPerSecond: 1 }).events(now - (HISTORY_H + 2) * 3600_000, now - 2 * 3600_000)) {
    if (e.kind === 'create') {
      if (!e.mayhem) history.set(e.mint, { create: e, trades: [], graduatedAt: null });
    } else {
      const h = history.get(e.mint);
      if (h && e.kind === 'trade') h.trades.push(e);
      else if (h && h.graduatedAt === null) h.graduatedAt = e.at;
    }
  }
  const labelled = [...history.values()].map((h) => ({
    mint: h.create.mint,
    labelVersion: LABEL_VERSION,
    resolvedAt: new Date(now),
    rows: runnerObservations({
      create: h.create,
      tradesAnyOrder: h.trades,
      graduatedAt: h.graduatedAt,
      horizonAt: new Date(h.create.at.getTime() + 2 * 3600_000),
    }),
  }));
  const store = createRunnerNowStore(db);
  await store.insertObservations(labelled, 'synthetic');

  // The live market: five busy minutes (2.5 launches/s) leave more than 500 non-mayhem mints in the live window; it
  // goes on trading through the run, STEP_MS of it before each pair of refreshes, as ingestion writes it.
  const events: LaunchEvent[] = [...createMarketSimulator({ seed: 5, launchesPerSecond: 2.5 }).events(now - 300_000, now + REFRESHES * STEP_MS)];
  const writer = createLaunchEventStore(db);
  const write = async (from: number, to: number) => {
    const xs = events.filter((e) => e.at.getTime() > from && e.at.getTime() <= to);
    for (let i = 0; i < xs.length; i += 5000) await writer.writeBatch(xs.slice(i, i + 5000));
  };
  await write(-Infinity, now);
  let clock = now;
  await createPriceStore(db).recordQuote({ symbol: 'SOL', mint: WSOL_MINT, usd: 80, source: 'jupiter-price-v3', fetchedAt: new Date(now) });

  const cfg = loadConfig({});
  const ctx = { cfg, db, log, now: () => new Date(clock) };
  const scorer = createRunnerNowScorer({
    store,
    refitEveryS: 3600,
    corpusLimit: cfg.mint.corpusLimit,
    liveWindowS: cfg.live.windowS,
    log,
    now: () => Date.now(),
  });
  const fits = [];
  for (const a of scorer.ages) fits.push((await scorer.refit(a)).model);
  // The model's own share, timed around the same calls the refresh makes.
  let modelMs = 0;
  const timedScorer = {
    ...scorer,
    fromNow: (...args: Parameters<typeof scorer.fromNow>) => {
      const t0 = performance.now();
      const r = scorer.fromNow(...args);
      modelMs += performance.now() - t0;
      return r;
    },
  };
  const without = createLiveTick(ctx, { live: { runnerNow: undefined } });
  const withModel = createLiveTick(ctx, { live: { runnerNow: { scorer: timedScorer, store } } });
  // Warm-up: the first refresh of each reads the whole window and logs every mint's first odds.
  const { tracked } = await without.refreshLiveSnapshot();
  await withModel.refreshLiveSnapshot();

  const base: number[] = [];
  const added: number[] = [];
  const model: number[] = [];
  for (let i = 0; i < REFRESHES; i++) {
    await write(clock, clock + STEP_MS);
    clock += STEP_MS;
    for (const [which, p] of i % 2
      ? ([
          ['with', withModel],
          ['without', without],
        ] as const)
      : ([
          ['without', without],
          ['with', withModel],
        ] as const)) {
      modelMs = 0;
      const t0 = performance.now();
      await p.refreshLiveSnapshot();
      const ms = performance.now() - t0;
      if (which === 'with') {
        added.push(ms);
        model.push(modelMs);
      } else base.push(ms);
    }
  }
  await db.destroy();
  await bench.stop();

  console.log(
    `\nbench:runners — ${machineLine()}; ${tracked} live mints; synthetic corpus ${labelled.length} launches (${fits.map((m) => `${m.ageS}s:${m.corpusSize}`).join(', ')}); ${REFRESHES} refreshes each, alternating`,
  );
  console.log('| live refresh | mean ms | p50 ms | p99 ms |\n|---|---|---|---|');
  console.log(`| without from-now odds | ${f2(mean(base))} | ${f2(pct(base, 0.5))} | ${f2(pct(base, 0.99))} |`);
  console.log(`| with from-now odds | ${f2(mean(added))} | ${f2(pct(added, 0.5))} | ${f2(pct(added, 0.99))} |`);
  console.log(`| the model's answers alone (inside "with") | ${f2(mean(model))} | ${f2(pct(model, 0.5))} | ${f2(pct(model, 0.99))} |`);
  console.log(
    `added per refresh: ${f2(mean(added) - mean(base))} ms mean (ratio ${f2(mean(added) / mean(base))}), p99 ratio ${f2(pct(added, 0.99) / pct(base, 0.99))}`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
