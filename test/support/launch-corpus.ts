import type { CreateEvent } from '../../domain/launch/launch-events';
import type { CorpusRow } from '../../domain/scoring/grad-prob-model';
import { LAUNCH_FEATURE_KEYS, type LaunchFeatures } from '../../domain/scoring/launch-features';
import { LaunchHistoryFolder } from '../../domain/scoring/launch-histories';
import type { MintFeatures } from '../../domain/scoring/mint-features';
import { isSmartWallet } from '../../domain/wallets/smart-score';
import { createMarketSimulator } from '../../ingest/simulator/market-simulator';
import { SeededRandom } from '../../ingest/simulator/seeded-random';

/**
 * The pieces tests and benchmarks seed scoring corpora from: a launch's create event, knn-v1's feature snapshot
 * around one virtual-SOL value, corpus rows one per step of time, and the simulator's launches featurized at 30 s.
 */
export const CORPUS_T0 = Date.parse('2026-10-01T00:00:00Z');

/** The create event of mint `MINT` at `at` (slot 100), on the standard initial reserves. */
export const testCreate = (at = Date.parse('2026-11-01T00:00:00Z')): CreateEvent => ({
  kind: 'create',
  signature: 'create-sig',
  ordinal: 0,
  slot: 100,
  at: new Date(at),
  source: 'test',
  mint: 'MINT',
  name: 'Test',
  symbol: 'TST',
  uri: '',
  bondingCurve: 'CURVE',
  creator: 'DEV',
  mayhem: false,
  vSolLamports: 30e9,
  vTokensRaw: 1_073e12,
});

/** knn-v1's features of a mint at `vSolSol`, everything else fixed: the curve position is the only signal. */
export const v1Features = (vSolSol: number): Omit<MintFeatures, 'launch'> => ({
  vSolSol,
  vSolGrowthSol: vSolSol - 30,
  logTrades: 2,
  logUniqueBuyers: 1.5,
  topBuyerShare: 0.3,
  currentMult: (vSolSol / 30) ** 2,
  buyCount: 5,
  sellCount: 2,
  uniqueBuyers: 4,
  creatorSold: false,
});

/**
 * Corpus row `i` at age 30 s: observed `i` steps after `t0`; a graduate resolves `gradAfterMs` later (minutes, as
 * real graduates do), every other row a day later, as in production.
 */
export function corpusRow(
  i: number,
  features: MintFeatures,
  graduated: boolean,
  o: { t0?: number; stepMs?: number; gradAfterMs?: number; mint?: string } = {},
): CorpusRow {
  const observed = (o.t0 ?? CORPUS_T0) + i * (o.stepMs ?? 60_000);
  return {
    mint: o.mint ?? `mint-${String(i).padStart(5, '0')}`,
    ageBucket: 30,
    features,
    graduated,
    observedAt: new Date(observed),
    resolvedAt: new Date(observed + (graduated ? (o.gradAfterMs ?? 86_400_000) : 86_400_000)),
  };
}

export type PoolRow = { features: MintFeatures; graduated: boolean };

/**
 * The simulator's launches (seed 7, no mayhem mints) over `hours`, featurized at 30 s by the production code, with
 * "graduated within 1 h" as the label: what the scoring benchmarks resample their corpora from.
 */
export function simulatedLaunchPool(t0: number, hours = 6): PoolRow[] {
  const folder = new LaunchHistoryFolder(3600, isSmartWallet);
  const pool: PoolRow[] = [];
  for (const e of createMarketSimulator({ seed: 7, startMs: t0, mayhemShare: 0 }).events(t0, t0 + hours * 3_600_000)) {
    for (const l of folder.push(e)) pool.push({ features: l.observations[0]!.features, graduated: l.outcome.graduated });
  }
  return pool;
}

/** Launch features with every value random, except `logSwaps` and `vSolSol`, which carry the label. */
export function twoFeatureLaunch(rng: SeededRandom, graduated: boolean): LaunchFeatures {
  const f = Object.fromEntries(LAUNCH_FEATURE_KEYS.map((k) => [k, rng.uniform(0, 1)])) as LaunchFeatures;
  f.vSolSol = graduated ? rng.uniform(36, 50) : rng.uniform(30, 42);
  f.logSwaps = graduated ? rng.uniform(1, 2.5) : rng.uniform(2, 4);
  return f;
}

/** `n` rows of `twoFeatureLaunch` (a `gradShare` of them graduated, minutes after), one a minute from CORPUS_T0. */
export function twoFeatureCorpus(n: number, seed: number, gradShare = 0.15): CorpusRow[] {
  const rng = new SeededRandom(seed);
  return Array.from({ length: n }, (_, i) => {
    const g = rng.chance(gradShare);
    const l = twoFeatureLaunch(rng, g);
    return corpusRow(i, { ...v1Features(l.vSolSol), launch: l }, g, { gradAfterMs: 300_000 });
  });
}
