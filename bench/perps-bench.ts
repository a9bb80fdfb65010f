import { createDriftImportActivities } from '../activities/perps/drift-import-activities';
import { createDriftHistoricalClient } from '../clients/drift/drift-historical-client';
import { toTrade } from '../clients/hyperliquid/hyperliquid-mapping';
import { wsFrameWire } from '../clients/hyperliquid/hyperliquid-wire';
import { createExchangeAImportStore } from '../db/perps/exchange-a-import-store';
import { createExchangeATraderStore } from '../db/perps/exchange-a-trader-store';
import { percentile } from '../domain/ops/latency-window';
import { walletsPerSweep } from '../domain/perps/snapshot-policy';
import { utcDaysBetween } from '../domain/perps/utc-days';
import { startSimulatedHyperliquid } from '../ingest/perps-simulator/simulated-hyperliquid-server';
import { PerpsStreamConsumer } from '../ingest/perps-stream/perps-stream-consumer';
import { SeededRandom } from '../ingest/simulator/seeded-random';
import { freshBenchDatabase } from './lib/bench-db';

/**
 * `npm run bench:perps [-- <stream seconds> <rows per day>]` (defaults 60 and 2000).
 *
 * 1. Trades stream ingest: Hyperliquid `trades` frames (wire JSON, 50 trades per frame, 1,000 trades/s of the
 *    stream's time) through the stream client's own parse (JSON, the zod wire schema, the mapping) and the
 *    discovery consumer with 5,000 watched wallets; one flush per second of stream time into a store that only
 *    counts (the database write is one statement per flush). Prints CPU per trade and the share of one core.
 * 2. Entry-detection lateness at the default budget: a discrete-event model of the snapshot sweep (period,
 *    wallets per sweep from the weight budget, poked wallets first, hot and cold cadences) over 5,000 watched
 *    wallets; an entry is detected by the first snapshot after the trade that made it. Modelled, not measured
 *    against an exchange: it shows what the budget allows.
 * 3. exchange_a import: a year of daily files of one market from the simulated Drift bucket over HTTP, through
 *    the import activity (read, validate, checksum, one transaction per file into PostgreSQL), then the traders.
 */
const STREAM_S = Number(process.argv[2] ?? 60);
const ROWS_PER_DAY = Number(process.argv[3] ?? 2000);
const TRADES_PER_S = 1000;
const WATCHED = 5000;

function streamBench() {
  const rng = SeededRandom.derive(1, 'perps-bench-stream');
  const hex = () => `0x${Buffer.from(rng.bytes(20)).toString('hex')}`;
  const watched = Array.from({ length: WATCHED }, hex);
  const others = Array.from({ length: 50_000 }, hex);
  const coins = ['BTC', 'ETH', 'SOL', 'HYPE', 'DOGE'];
  const frames: string[] = [];
  let tid = 1;
  for (let s = 0; s < STREAM_S * 20; s++) {
    const data = Array.from({ length: TRADES_PER_S / 20 }, () => {
      const user = rng.chance(0.1) ? rng.pick(watched) : rng.pick(others);
      const buy = rng.chance(0.5);
      const px = 100 + rng.normal();
      return {
        coin: rng.pick(coins),
        side: buy ? 'B' : 'A',
        px: px.toFixed(4),
        sz: (rng.lognormal(1, 1.5) * 10).toFixed(3),
        hash: `0x${tid.toString(16).padStart(64, '0')}`,
        time: 1_700_000_000_000 + s * 50,
        tid: tid++,
        users: buy ? [user, rng.pick(others)] : [rng.pick(others), user],
      };
    });
    frames.push(JSON.stringify({ channel: 'trades', data }));
  }
  const writes = { discovered: 0, poked: 0 };
  const consumer = new PerpsStreamConsumer({
    exchange: 'bench',
    minNotionalUsd: 100_000,
    maxWatched: 100_000,
    store: {
      discover: async (_e, w) => ((writes.discovered += w.length), w.length),
      poke: async (_e, w) => ((writes.poked += w.length), w.length),
      watchedWallets: async () => watched,
    },
    now: () => new Date(),
  });
  return async () => {
    await consumer.refreshWatched();
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < frames.length; i++) {
      const frame = wsFrameWire.parse(JSON.parse(frames[i]!));
      if (frame.channel === 'trades') consumer.onTrades(frame.data.map(toTrade));
      if (i % 20 === 19) await consumer.flush();
    }
    const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const trades = frames.length * (TRADES_PER_S / 20);
    console.log(`stream: ${trades} trades (${STREAM_S} s at ${TRADES_PER_S}/s), ${WATCHED} watched`);
    console.log(
      `  CPU ${((cpuMs * 1000) / trades).toFixed(2)} µs/trade, ${((cpuMs / (STREAM_S * 1000)) * 100).toFixed(2)} % of one core at ${TRADES_PER_S}/s (wall ${wallMs.toFixed(0)} ms)`,
    );
    console.log(`  large-trade takers discovered ${writes.discovered}, pokes written ${writes.poked} in ${consumer.counters.flushes} flushes`);
  };
}

/** The sweep model: every `sweepS`, the due wallets (poked first, then by due time) up to the budget's count. */
function latencyModel(o: {
  weightPerMinute: number;
  share: number;
  sweepS: number;
  hotS: number;
  coldS: number;
  hotShare: number;
  entriesPerWalletHour: number;
}) {
  const rng = SeededRandom.derive(2, 'perps-bench-lateness');
  const perSweep = walletsPerSweep(o.weightPerMinute, o.share, o.sweepS);
  const hours = 6;
  const end = hours * 3_600_000;
  const wallets = Array.from({ length: WATCHED }, (_, i) => ({
    hot: i < WATCHED * o.hotShare,
    next: rng.uniform(0, 900_000),
    poked: null as number | null,
    pending: [] as number[],
  }));
  // Each wallet's trades (entries) as a Poisson process; a trade pokes it (the stream sees it within a second).
  const events: { at: number; w: number }[] = [];
  wallets.forEach((_, w) => {
    for (let t = rng.exponential(o.entriesPerWalletHour / 3_600_000); t < end; t += rng.exponential(o.entriesPerWalletHour / 3_600_000))
      events.push({ at: t, w });
  });
  events.sort((a, b) => a.at - b.at);
  const lateness: number[] = [];
  let e = 0;
  for (let now = 0; now < end; now += o.sweepS * 1000) {
    for (; e < events.length && events[e]!.at <= now; e++) {
      const w = wallets[events[e]!.w]!;
      w.pending.push(events[e]!.at);
      w.poked ??= events[e]!.at + 1000;
    }
    const due = wallets
      .filter((w) => (w.poked !== null && w.poked <= now) || w.next <= now)
      .sort((a, b) => (a.poked ?? Infinity) - (b.poked ?? Infinity) || a.next - b.next)
      .slice(0, perSweep);
    for (const w of due) {
      for (const at of w.pending) if (now > 3_600_000) lateness.push((now - at) / 1000);
      w.pending = [];
      w.poked = null;
      w.next = now + (w.hot ? o.hotS : o.coldS) * 1000;
    }
  }
  lateness.sort((a, b) => a - b);
  console.log(
    `detection lateness (model): ${WATCHED} watched, ${perSweep} snapshots per ${o.sweepS} s sweep (${o.weightPerMinute}/min × ${o.share}), ${o.entriesPerWalletHour} trades/wallet/h`,
  );
  console.log(`  p50 ${percentile(lateness, 50)?.toFixed(0)} s, p99 ${percentile(lateness, 99)?.toFixed(0)} s over ${lateness.length} entries`);
}

async function importBench() {
  const hl = await startSimulatedHyperliquid({ seed: 3, wallets: 20, warmupMs: 3_600_000, driftBucket: { rowsPerDay: ROWS_PER_DAY, traders: 2000 } });
  const bench = await freshBenchDatabase('perps_bench');
  try {
    const acts = createDriftImportActivities({
      drift: createDriftHistoricalClient({ baseUrl: hl.driftUrl! }),
      importStore: createExchangeAImportStore(bench.db),
      traderStore: createExchangeATraderStore(bench.db),
      now: () => new Date(),
    });
    const days = utcDaysBetween('2024-01-09', '2025-01-08');
    const t0 = Date.now();
    let rows = 0;
    let next = 0;
    // Four files at a time, as PERPS_IMPORT_CONCURRENCY's default.
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < days.length) {
          const r = await acts.importDriftFile({ market: 'SOL-PERP', date: days[next++]!, refresh: false });
          rows += r.rows;
        }
      }),
    );
    const filesMs = Date.now() - t0;
    const t1 = Date.now();
    let traders = 0;
    for (;;) {
      const r = await acts.refreshDirtyDriftTraders({ limit: 200 });
      traders += r.refreshed;
      if (r.remaining === 0) break;
    }
    const tradersMs = Date.now() - t1;
    console.log(`import: ${days.length} daily files of one market, ${rows} rows (${ROWS_PER_DAY}/day), 4 at a time`);
    console.log(
      `  files ${(filesMs / 1000).toFixed(1)} s (${((days.length * 1000) / filesMs).toFixed(1)} files/s, ${Math.round((rows * 1000) / filesMs)} rows/s); traders ${traders} in ${(tradersMs / 1000).toFixed(1)} s`,
    );
  } finally {
    await bench.db.destroy();
    await bench.stop();
    await hl.close();
  }
}

async function main() {
  await streamBench()();
  latencyModel({ weightPerMinute: 900, share: 0.8, sweepS: 10, hotS: 60, coldS: 900, hotShare: 0.1, entriesPerWalletHour: 0.5 });
  await importBench();
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
