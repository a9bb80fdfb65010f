import os from 'node:os';
import { LaunchHistoryFolder } from '../domain/scoring/launch-histories';
import { percentile } from '../domain/ops/latency-window';
import type { CorpusRow } from '../domain/scoring/grad-prob-model';
import { fitGradProbV2ModelSteps, type GradProbV2Model } from '../domain/scoring/grad-prob-v2-model';
import { LAUNCH_FEATURE_KEYS, type LaunchFeatures } from '../domain/scoring/launch-features';
import type { MintFeatures } from '../domain/scoring/mint-features';
import type { Steps } from '../domain/scoring/stepwise';
import { createMarketSimulator } from '../ingest/simulator/market-simulator';
import { SeededRandom } from '../ingest/simulator/seeded-random';
import { isSmartWallet } from '../domain/wallets/smart-score';

/**
 * `npm run bench:score-v2 [-- <sizes, comma-separated> <queries>]` (defaults 200000,1000000 and 1000): knn-v2's fit
 * (learned metric, calibration) and one grad_prob score call (CPU time per call), on corpora resampled from the
 * simulator's launch features at 30 s (a 6 h market, seed 7) with small noise on every feature, as bench:score does for
 * knn-v1. The fit runs step by step; the longest step is the event-loop stall a worker refitting in the background
 * would see. Synthetic features: the figures measure cost, not accuracy.
 */
const SIZES = (process.argv[2] ?? '200000,1000000').split(',').map(Number);
const QUERIES = Number(process.argv[3] ?? 1000);
const T0 = Date.parse('2026-01-01T00:00:00Z');

type PoolRow = { features: MintFeatures; graduated: boolean };

function simulatedPool(): PoolRow[] {
  const folder = new LaunchHistoryFolder(3600, isSmartWallet);
  const pool: PoolRow[] = [];
  for (const e of createMarketSimulator({ seed: 7, startMs: T0, mayhemShare: 0 }).events(T0, T0 + 6 * 3_600_000)) {
    for (const l of folder.push(e)) pool.push({ features: l.observations[0]!.features, graduated: l.outcome.graduated });
  }
  return pool;
}

function resample(pool: readonly PoolRow[], rng: SeededRandom): PoolRow {
  const p = pool[rng.int(0, pool.length)]!;
  const launch = { ...p.features.launch! } as LaunchFeatures;
  for (const k of LAUNCH_FEATURE_KEYS) if (launch[k] !== 0) launch[k] *= 1 + rng.uniform(-0.02, 0.02);
  return { features: { ...p.features, launch }, graduated: p.graduated };
}

function timedSteps<T>(steps: Steps<T>): { value: T; totalMs: number; longestStepMs: number } {
  const start = performance.now();
  let longest = 0;
  for (;;) {
    const t = performance.now();
    const r = steps.next();
    longest = Math.max(longest, performance.now() - t);
    if (r.done) return { value: r.value, totalMs: performance.now() - start, longestStepMs: longest };
  }
}

function main() {
  const pool = simulatedPool();
  const rng = new SeededRandom(11);
  console.log(
    `${os.arch()} × ${os.cpus().length} ${os.cpus()[0]?.model.trim()}, node ${process.version}, load ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  console.log(`pool: ${pool.length} simulated launches at 30 s (synthetic)`);
  for (const n of SIZES) {
    const corpus: CorpusRow[] = Array.from({ length: n }, (_, i) => {
      const r = resample(pool, rng);
      return {
        mint: `m${i}`,
        ageBucket: 30,
        features: r.features,
        graduated: r.graduated,
        observedAt: new Date(T0 + i * 1000),
        resolvedAt: new Date(T0 + i * 1000 + 86_400_000),
      };
    });
    const fit = timedSteps<GradProbV2Model>(fitGradProbV2ModelSteps(corpus, { ageBucket: 30 }));
    const model = fit.value;
    const queries = Array.from({ length: QUERIES + 100 }, () => resample(pool, rng).features);
    const cpu: number[] = [];
    for (const [i, q] of queries.entries()) {
      const t = process.cpuUsage();
      model.score(q);
      const d = process.cpuUsage(t);
      if (i >= 100) cpu.push((d.user + d.system) / 1000);
    }
    const sorted = [...cpu].sort((a, b) => a - b);
    console.log(
      `n=${n}: fit ${(fit.totalMs / 1000).toFixed(1)} s wall, longest step ${fit.longestStepMs.toFixed(0)} ms; metric ${model.metric.candidate}, k ${model.metric.k}, ` +
        `${Object.values(model.metric.weights).filter((w) => w > 0).length} features; score call CPU p50 ${percentile(sorted, 50)!.toFixed(3)} ms, p99 ${percentile(sorted, 99)!.toFixed(3)} ms (${QUERIES} calls)`,
    );
  }
}

main();
