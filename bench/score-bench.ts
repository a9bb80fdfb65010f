import os from 'node:os';
import { percentile } from '../domain/ops/latency-window';
import { fitGradProbModelSteps, type CorpusRow } from '../domain/scoring/grad-prob-model';
import { buildKdTreeIndex } from '../domain/scoring/kd-tree-index';
import { runStepsAsync, type Steps } from '../domain/scoring/stepwise';
import { buildFlatKnnIndex, DEFAULT_K, type KnnIndex } from '../domain/scoring/knn-index';
import { FEATURE_VECTOR_KEYS, toVector, type MintFeatures } from '../domain/scoring/mint-features';
import { SeededRandom } from '../ingest/simulator/seeded-random';
import { corpusRow, simulatedLaunchPool, type PoolRow } from '../test/support/launch-corpus';

/**
 * `npm run bench:score [-- <sizes, comma-separated> <queries>]` (defaults 100000,1000000 and 1000).
 *
 * Corpora are drawn from the simulator's feature distribution at 30 s: a 6 h market (seed 7) is featurized
 * by the production code, and rows are resampled from it with small noise on the continuous features
 * (mints without a trade stay exact duplicates, as they are in real data). Queries are fresh draws.
 * Prints build time, memory and per-query latency of the flat scan and the k-d tree, checks that both
 * answer the same, then the whole grad_prob fit and score call (k-d tree, calibration included).
 * Run with --expose-gc (the npm script does) so memory figures are after collection.
 */
const SIZES = (process.argv[2] ?? '100000,1000000').split(',').map(Number);
const QUERIES = Number(process.argv[3] ?? 1000);
const WARMUP = 200;
const DIMS = FEATURE_VECTOR_KEYS.length;
const T0 = Date.parse('2026-01-01T00:00:00Z');

function resample(pool: readonly PoolRow[], rng: SeededRandom): PoolRow {
  const p = pool[rng.int(0, pool.length)]!;
  const f = p.features;
  if (f.vSolGrowthSol === 0 && f.logTrades === 0) return p;
  const growth = f.vSolGrowthSol * Math.exp(0.05 * rng.normal());
  const vSol = f.vSolSol - f.vSolGrowthSol + growth;
  const share = f.topBuyerShare > 0 && f.topBuyerShare < 1 ? Math.min(1, Math.max(0, f.topBuyerShare + 0.01 * rng.normal())) : f.topBuyerShare;
  return {
    graduated: p.graduated,
    features: { ...f, vSolSol: vSol, vSolGrowthSol: growth, currentMult: f.currentMult * (vSol / f.vSolSol) ** 2, topBuyerShare: share },
  };
}

const gc = (globalThis as { gc?: () => void }).gc;
function memoryMb(): number {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / 1e6;
}

function time<T>(f: () => T): { value: T; ms: number } {
  const t = process.hrtime.bigint();
  const value = f();
  return { value, ms: Number(process.hrtime.bigint() - t) / 1e6 };
}

type Latency = { p50: number; p99: number; max: number };

/**
 * Per-query wall-clock latency, and the process CPU time of each query: on a shared machine the wall clock
 * also counts the time the OS gave the core to someone else, the CPU time only our own work.
 */
function latencies(queries: readonly MintFeatures[], f: (q: MintFeatures) => unknown): { wall: Latency; cpu: Latency } {
  for (const q of queries.slice(0, WARMUP)) f(q);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (const q of queries.slice(WARMUP)) {
    const c = process.cpuUsage();
    wall.push(time(() => f(q)).ms);
    const u = process.cpuUsage(c);
    cpu.push((u.user + u.system) / 1000);
  }
  const summary = (xs: number[]): Latency => {
    xs.sort((a, b) => a - b);
    return { p50: percentile(xs, 50)!, p99: percentile(xs, 99)!, max: xs[xs.length - 1]! };
  };
  return { wall: summary(wall), cpu: summary(cpu) };
}

const cells = (l: Latency) => `${f3(l.p50)} | ${f3(l.p99)} | ${f3(l.max)}`;

/** The same steps, timing the CPU each uninterrupted piece takes (independent of other load on the machine). */
function* measuredPieces<T>(steps: Steps<T>, onPiece: (cpuMs: number) => void): Steps<T> {
  for (;;) {
    const c = process.cpuUsage();
    const r = steps.next();
    const u = process.cpuUsage(c);
    onPiece((u.user + u.system) / 1000);
    if (r.done) return r.value;
    yield;
  }
}

/** Longest gap between 1 ms ticks while `work` runs: how long the event loop was not available (wall clock). */
async function longestStall<T>(work: () => Promise<T>): Promise<{ value: T; stallMs: number }> {
  let last = performance.now();
  let stall = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
  }, 1);
  try {
    const value = await work();
    return { value, stallMs: Math.max(stall, performance.now() - last) };
  } finally {
    clearInterval(tick);
  }
}

/** Flat scan against k-d tree over the same rows: build, memory, latency, and whether they answer the same. */
function compareIndexes(sample: readonly PoolRow[], queries: readonly MintFeatures[]): string[] {
  const n = sample.length;
  const rows = sample.map((r, i) => ({ vector: toVector(r.features), label: i }));
  const indexes: { name: string; index: KnnIndex<number>; buildMs: number; memMb: number }[] = [];
  for (const [name, build] of [
    ['flat scan', buildFlatKnnIndex],
    ['k-d tree', buildKdTreeIndex],
  ] as const) {
    const before = memoryMb();
    const { value: index, ms } = time(() => build(rows, DIMS));
    indexes.push({ name, index, buildMs: ms, memMb: memoryMb() - before });
  }
  const [flat, tree] = indexes as [(typeof indexes)[0], (typeof indexes)[0]];
  let same = 0;
  for (const q of queries.slice(WARMUP)) {
    const a = flat.index
      .query(toVector(q), DEFAULT_K)
      .map((x) => x.id)
      .join();
    if (
      a ===
      tree.index
        .query(toVector(q), DEFAULT_K)
        .map((x) => x.id)
        .join()
    )
      same++;
  }
  const lat = indexes.map((x) => latencies(queries, (q) => x.index.query(toVector(q), DEFAULT_K)));
  const out = indexes.map(
    (x, i) => `| ${n.toLocaleString('en')} | ${x.name} | ${f1(x.buildMs)} | ${f1(x.memMb)} | ${cells(lat[i]!.wall)} | ${cells(lat[i]!.cpu)} |`,
  );
  const ratio = (a: Latency, b: Latency) => `${f1(a.p50 / b.p50)}× | ${f1(a.p99 / b.p99)}×`;
  out.push(
    `| | flat ÷ tree | | | ${ratio(lat[0]!.wall, lat[1]!.wall)} | | ${ratio(lat[0]!.cpu, lat[1]!.cpu)} | answers identical: ${same}/${queries.length - WARMUP} |`,
  );
  return out;
}

const f1 = (x: number) => x.toFixed(1);
const f3 = (x: number) => x.toFixed(3);

async function main() {
  if (!gc) console.warn('no --expose-gc: memory figures include garbage');
  const load0 = os.loadavg();
  const pool = simulatedLaunchPool(T0);
  const rng = new SeededRandom(99);
  const queries = Array.from({ length: QUERIES + WARMUP }, () => resample(pool, rng).features);
  const lines: string[] = [];
  const whole: string[] = [];

  for (const n of SIZES) {
    const empty = memoryMb();
    const sample = Array.from({ length: n }, () => resample(pool, rng));
    lines.push(...compareIndexes(sample, queries));

    // The whole grad_prob path: corpus rows as the store returns them, a sliced fit, then score calls.
    const corpus: CorpusRow[] = sample.map((r, i) => corpusRow(i, r.features, r.graduated, { t0: T0, stepMs: 1000, mint: `bench-${i}` }));
    const withCorpus = memoryMb();
    const corpusMb = withCorpus - empty;
    const t = performance.now();
    let longestPiece = 0;
    const pieces = measuredPieces(fitGradProbModelSteps(corpus, { ageBucket: 30 }), (ms) => (longestPiece = Math.max(longestPiece, ms)));
    // Driven as the worker's scorer drives it (models/mint/knn-mint-scorer.ts): back to the event loop at every yield.
    const { value: model, stallMs } = await longestStall(() => runStepsAsync(pieces, () => new Promise<void>((resolve) => setImmediate(resolve))));
    const fitS = (performance.now() - t) / 1000;
    const s = latencies(queries, (q) => model.score(q));
    whole.push(
      `| ${n.toLocaleString('en')} | ${f1(corpusMb)} | ${f1(fitS)} (${model.indexSize.toLocaleString('en')} indexed, ${model.calibration.samples.toLocaleString('en')} calibration rows scored) | ${f1(longestPiece)} | ${f1(stallMs)} | ${cells(s.wall)} | ${cells(s.cpu)} |`,
    );
  }

  const cpu = os.cpus();
  console.log(
    `\nbench:score — ${cpu.length} × ${cpu[0]?.model.trim()}, ${(os.totalmem() / 1e9).toFixed(0)} GB, node ${process.version}; load average ${load0.map(f1).join(' ')} at start, ${os.loadavg().map(f1).join(' ')} at end`,
  );
  console.log(
    `corpus: ${pool.length} simulated mints (seed 7, 6 h) at 30 s, resampled with noise; ${QUERIES} queries after ${WARMUP} warm-up, k = ${DEFAULT_K}, ${DIMS} features\n`,
  );
  console.log(
    '| rows | index | build ms | memory MB | wall p50 ms | wall p99 ms | wall max ms | CPU p50 ms | CPU p99 ms | CPU max ms |\n|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const l of lines) console.log(l);
  console.log('\nWhole grad_prob path (k-d tree, isotonic calibration on the latest 30%), fitted piece by piece as the worker does:\n');
  console.log(
    '| rows | corpus rows MB | fit s | longest piece, CPU ms | longest event-loop stall, wall ms | score wall p50 ms | wall p99 | wall max | score CPU p50 ms | CPU p99 | CPU max |\n|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const l of whole) console.log(l);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
