import { planHourCommit, type HourCommit } from '../../../domain/ledger/commit-chain';
import type { CompositeLeafInputV1 } from '../../../domain/ledger/composite-leaf';
import { GRAD_PROB_LEAF_V1, type GradProbLeafInputV1 } from '../../../domain/ledger/grad-prob-leaf';
import { PERPS_ENTRY_LEAF_V1, type PerpsEntryLeafInputV1 } from '../../../domain/ledger/perps-entry-leaf';

export const HOUR = new Date('2026-11-23T14:00:00.000Z');

/** A prediction row as the predictions table holds it (the pinned sample of grad_prob leaf v1). */
export const sampleGradProb = (over: Partial<GradProbLeafInputV1> = {}): GradProbLeafInputV1 => ({
  id: 4217,
  mint: '7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr',
  ageBucket: 60,
  asOf: new Date('2026-11-23T14:05:10.000Z'),
  predictedAt: new Date('2026-11-23T14:05:10.482Z'),
  gradProb: 0.7345123456789,
  modelVersion: 'knn-v1@60:52110:1f3a9c0d2b7e44',
  calibration: { bandLo: 0.7, bandHi: 0.9, n: 412, historicalActualRate: 0.7524271844660194 },
  priceSol: 2.8e-8,
  features: {
    vSolSol: 41.25,
    vSolGrowthSol: 11.25,
    logTrades: 4.110873864173311,
    logUniqueBuyers: 3.58351893845611,
    topBuyerShare: 0.1875,
    currentMult: 1.8906,
    buyCount: 48,
    sellCount: 12,
    uniqueBuyers: 35,
    creatorSold: false,
  },
  ...over,
});

/** A first cross as the composite track will hold it (the pinned sample of composite leaf v1). */
export const sampleComposite = (over: Partial<CompositeLeafInputV1> = {}): CompositeLeafInputV1 => ({
  id: 981,
  mint: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
  predictedAt: new Date('2026-11-23T14:41:07.015Z'),
  tier: 'ACT',
  compositeScore: 3.4566666666666666,
  thresholdAtCross: 2.875,
  smartMoneyIn: 3,
  maxMultAtCross: 2.31,
  ageSAtCross: 47.5,
  mcAtCrossUsd: 12873.42,
  ...over,
});

/** `n` distinct predictions spread over the sample hour, deterministic, in scrambled order. */
export function gradProbRows(n: number, seed = 1): GradProbLeafInputV1[] {
  const rows: GradProbLeafInputV1[] = [];
  let x = seed;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
  for (let i = 0; i < n; i++) {
    // Whole seconds so several rows share a millisecond and the id must break the tie.
    const at = new Date(HOUR.getTime() + Math.floor(next() * 3600) * 1000);
    rows.push(
      sampleGradProb({
        id: 1000 + ((i * 7919) % (n * 10)) + 1,
        mint: `Mint${seed}x${i}`,
        ageBucket: i % 2 === 0 ? 30 : 60,
        asOf: new Date(at.getTime() - 250),
        predictedAt: at,
        gradProb: next(),
        calibration: { bandLo: 0.5, bandHi: 0.7, n: i, historicalActualRate: i === 0 ? null : next() },
        priceSol: 1e-8 + next() * 1e-7,
      }),
    );
  }
  return rows;
}

/** The grad_prob commit of `n` generated rows in the sample hour. */
export function gradProbCommit(n: number, seed = 1): HourCommit {
  return planHourCommit({
    track: 'grad_prob',
    leafVersion: 1,
    hourStart: HOUR,
    leaves: gradProbRows(n, seed).map((r) => GRAD_PROB_LEAF_V1.build(r)),
    previous: null,
  })!;
}

/** A smart entry as perps leaf v1 holds it (the pinned sample of perps leaf v1). */
export const samplePerps = (over: Partial<PerpsEntryLeafInputV1> = {}): PerpsEntryLeafInputV1 => ({
  id: 42,
  exchange: 'hyperliquid',
  wallet: '0x5e9ee1089755c3435139848e47e6635505d5a13a',
  market: 'ETH',
  side: 'long',
  kind: 'increase',
  size: 0.5,
  entryPx: 1705.82,
  priceAtDetection: 1706.1,
  positionValueUsd: 853.05,
  leverage: 20,
  walletRoi30d: 0.1234,
  smartScore: null,
  whale: false,
  ruleVersion: 'perps-smart-v1',
  entryRuleVersion: 'entry-v1',
  detectedAt: new Date('2026-11-20T12:34:56.789Z'),
  ...over,
});

/** The perps commit of `n` entries in the sample hour (two per second, so ids break ties). */
export function perpsCommit(n: number): HourCommit {
  const leaves = Array.from({ length: n }, (_, i) =>
    PERPS_ENTRY_LEAF_V1.build(samplePerps({ id: 100 + i, size: 0.5 + i, detectedAt: new Date(HOUR.getTime() + Math.floor(i / 2) * 1000) })),
  );
  return planHourCommit({ track: 'perps', leafVersion: 1, hourStart: HOUR, leaves, previous: null })!;
}
