import os from 'node:os';
import { percentile } from '../domain/ops/latency-window';
import type { CorpusRow } from '../domain/scoring/grad-prob-model';
import { fitGradProbV2ModelSteps, type GradProbV2Model } from '../domain/scoring/grad-prob-v2-model';
import { buildKdTreeIndex } from '../domain/scoring/kd-tree-index';
import { LAUNCH_FEATURE_KEYS, launchVector, type LaunchFeatures } from '../domain/scoring/launch-features';
import { buildFlatKnnIndex, type KnnIndex } from '../domain/scoring/knn-index';
import type { Steps } from '../domain/scoring/stepwise';
import { SeededRandom } from '../ingest/simulator/seeded-random';
import { attributeSteps, describeStep, monotonicUs, startInProcessProfiler, type StepWindow } from './lib/step-attribution';
import { corpusRow, simulatedLaunchPool, type PoolRow } from '../test/support/launch-corpus';

/**
 * `npm run bench:score-v2 [-- <sizes, comma-separated> <queries>]` (defaults 200000,1000000 and 1000): knn-v2's fit
 * (learned metric, calibration) and one grad_prob score call (CPU time per call), on corpora resampled from the
 * simulator's launch features at 30 s (a 6 h market, seed 7) with small noise on every feature, as bench:score does for
 * knn-v1. The fit runs step by step; the longest step is the event-loop stall a worker refitting in the background
 * would see (wall clock, and the step's own CPU time, which other load on the machine does not inflate). It is driven
 * as the worker drives it, a turn of the event loop between steps, so V8's GC tasks run where they would. The three
 * longest steps are named by the V8 sampling profiler running in this process (lib/step-attribution.ts): the innermost
 * project function in their samples, and the garbage collector's share.
 * Reference in the same run: the k-d tree against the flat scan (brute force) on the same rows with all 23 features
 * z-scored, k = 100, with a count of identical answers. Synthetic features: the figures measure cost, not accuracy.
 */
const SIZES = (process.argv[2] ?? '200000,1000000').split(',').map(Number);
const QUERIES = Number(process.argv[3] ?? 1000);
const REFERENCE_QUERIES = 200;
const T0 = Date.parse('2026-01-01T00:00:00Z');

function resample(pool: readonly PoolRow[], rng: SeededRandom): PoolRow {
  const p = pool[rng.int(0, pool.length)]!;
  const launch = { ...p.features.launch! } as LaunchFeatures;
  for (const k of LAUNCH_FEATURE_KEYS) if (launch[k] !== 0) launch[k] *= 1 + rng.uniform(-0.02, 0.02);
  return { features: { ...p.features, launch }, graduated: p.graduated };
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

/** Steps kept for attribution: the longest few by wall clock. */
const KEPT_STEPS = 3;

/** How knn-mint-scorer.ts drives a refit: one step, then a turn of the event loop (where V8's GC tasks run too). */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Drives the fit as a worker does and times every stall the event loop sees: a step with the loop turn after it (an
 * incremental marking or sweeping task of the GC runs there, not inside the step).
 */
async function timedSteps<T>(steps: Steps<T>) {
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  let longestCpu = 0;
  let pieces = 0;
  const longest: StepWindow[] = [];
  for (;;) {
    const fromUs = monotonicUs();
    const c = process.cpuUsage();
    const r = steps.next();
    if (!r.done) await yieldToEventLoop();
    const toUs = monotonicUs();
    const cpu = cpuMs(c);
    longestCpu = Math.max(longestCpu, cpu);
    const w = { index: pieces, fromUs, toUs, wallMs: (toUs - fromUs) / 1000, cpuMs: cpu };
    if (longest.length < KEPT_STEPS || w.wallMs > longest[longest.length - 1]!.wallMs) {
      longest.push(w);
      longest.sort((a, b) => b.wallMs - a.wallMs);
      longest.length = Math.min(longest.length, KEPT_STEPS);
    }
    pieces++;
    if (r.done)
      return { value: r.value, wallMs: performance.now() - start, cpuMs: cpuMs(cpu0), longestWall: longest[0]?.wallMs ?? 0, longestCpu, pieces, longest };
  }
}

/** CPU time per call, after 100 warm-up calls: p50 and p99. */
function cpuLatency<Q>(queries: readonly Q[], f: (q: Q) => unknown): { p50: number; p99: number } {
  const cpu: number[] = [];
  for (const [i, q] of queries.entries()) {
    const t = process.cpuUsage();
    f(q);
    if (i >= 100) cpu.push(cpuMs(t));
  }
  cpu.sort((a, b) => a - b);
  return { p50: percentile(cpu, 50)!, p99: percentile(cpu, 99)! };
}

function reference(corpus: readonly CorpusRow[], queries: readonly number[][]): string {
  const rows = corpus.map((r, i) => ({ vector: launchVector(r.features.launch!), label: i }));
  const d = LAUNCH_FEATURE_KEYS.length;
  const tree: KnnIndex<number> = buildKdTreeIndex(rows, d);
  const flat: KnnIndex<number> = buildFlatKnnIndex(rows, d, tree.scaling);
  const same = queries.filter((q) => JSON.stringify(tree.query(q, 100)) === JSON.stringify(flat.query(q, 100))).length;
  const t = cpuLatency(queries, (q) => tree.query(q, 100));
  const f = cpuLatency(queries, (q) => flat.query(q, 100));
  return (
    `reference (23 features z-scored, k 100, ${queries.length - 100} queries): k-d tree CPU p50 ${t.p50.toFixed(3)} / p99 ${t.p99.toFixed(3)} ms, ` +
    `flat scan ${f.p50.toFixed(3)} / ${f.p99.toFixed(3)} ms (flat ÷ tree ${(f.p50 / t.p50).toFixed(1)}× / ${(f.p99 / t.p99).toFixed(1)}×); identical answers ${same}/${queries.length}`
  );
}

async function main() {
  const pool = simulatedLaunchPool(T0);
  const rng = new SeededRandom(11);
  const load = () =>
    os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');
  console.log(`${os.arch()} × ${os.cpus().length} ${os.cpus()[0]?.model.trim()}, node ${process.version}, load ${load()}`);
  console.log(`pool: ${pool.length} simulated launches at 30 s (synthetic)`);
  for (const n of SIZES) {
    const corpus: CorpusRow[] = Array.from({ length: n }, (_, i) => {
      const r = resample(pool, rng);
      return corpusRow(i, r.features, r.graduated, { t0: T0, stepMs: 1000, mint: `m${i}` });
    });
    const profiler = startInProcessProfiler();
    await profiler.started;
    const fit = await timedSteps<GradProbV2Model>(fitGradProbV2ModelSteps(corpus, { ageBucket: 30 }));
    const steps = attributeSteps(await profiler.stop(), fit.longest);
    const model = fit.value;
    const queries = Array.from({ length: QUERIES + 100 }, () => resample(pool, rng).features);
    const score = cpuLatency(queries, (q) => model.score(q));
    console.log(
      `n=${n}: fit ${(fit.wallMs / 1000).toFixed(1)} s wall, ${(fit.cpuMs / 1000).toFixed(1)} s CPU, ${fit.pieces} steps; longest step ${fit.longestWall.toFixed(0)} ms wall, ` +
        `longest step CPU ${fit.longestCpu.toFixed(0)} ms; metric ${model.metric.candidate}, k ${model.metric.k}, ` +
        `${Object.values(model.metric.weights).filter((w) => w > 0).length} features; score call CPU p50 ${score.p50.toFixed(3)} ms, p99 ${score.p99.toFixed(3)} ms (${QUERIES} calls); load ${load()}`,
    );
    for (const a of steps) console.log(`  longest ${describeStep(a)}`);
    console.log(
      reference(
        corpus,
        queries.slice(0, REFERENCE_QUERIES + 100).map((q) => launchVector(q.launch!)),
      ),
    );
  }
}

void main();
