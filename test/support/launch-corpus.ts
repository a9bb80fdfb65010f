import type { CreateEvent } from '../../domain/launch/launch-events';
import type { CorpusRow } from '../../domain/scoring/grad-prob-model';
import { LaunchHistoryFolder } from '../../domain/scoring/launch-histories';
import type { MintFeatures } from '../../domain/scoring/mint-features';
import { isSmartWallet } from '../../domain/wallets/smart-score';
import { createMarketSimulator } from '../../ingest/simulator/market-simulator';

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
