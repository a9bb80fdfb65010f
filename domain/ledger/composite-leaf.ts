import { asciiText, decimalText, fieldList, isoMillis, oneOf, safeInteger, sealLeaf, type LeafFormat } from './leaf-fields';

/**
 * The composite track's leaf, version 1 (spec section 9: the composite ledger's own format, starting at 1):
 * one first cross of a mint. The spec's fields (mint, predicted_at, composite_score, threshold_at_cross,
 * smart_money_in, max_mult_at_cross, age_s_at_cross, mc_at_cross_usd) plus the row id (proofs are looked up
 * by it and it breaks predicted_at ties) and the tier the signal was published with: the pre-registered
 * verdict ranks outcomes by tier, so the tier is a claim worth pinning. Frozen like every leaf version.
 */
export type CompositeLeafInputV1 = {
  id: number;
  mint: string;
  /** The moment of the first cross. */
  predictedAt: Date;
  tier: string;
  compositeScore: number;
  thresholdAtCross: number;
  /** Smart wallets among the top buyers at the cross (a count). */
  smartMoneyIn: number;
  maxMultAtCross: number;
  ageSAtCross: number;
  mcAtCrossUsd: number;
};

export const COMPOSITE_TIERS: readonly string[] = ['ACT', 'WATCH', 'SCOUT'];

export const COMPOSITE_LEAF_V1: LeafFormat<CompositeLeafInputV1> = Object.freeze({
  track: 'composite',
  version: 1,
  fields: fieldList(
    'age_s_at_cross', // decimal text ≥ 0 (seconds)
    'composite_score', // decimal text
    'id', // the composite prediction id (integer ≥ 1)
    'leaf_version', // 1
    'max_mult_at_cross', // decimal text
    'mc_at_cross_usd', // decimal text ≥ 0
    'mint',
    'predicted_at', // ISO-8601 UTC, milliseconds, Z
    'smart_money_in', // integer ≥ 0
    'threshold_at_cross', // decimal text
    'tier', // "ACT" | "WATCH" | "SCOUT"
    'track', // "composite"
  ),
  build(p) {
    const leaf = {
      age_s_at_cross: decimalText(p.ageSAtCross, 'age_s_at_cross', { min: 0 }),
      composite_score: decimalText(p.compositeScore, 'composite_score'),
      id: safeInteger(p.id, 'id', { min: 1 }),
      leaf_version: 1,
      max_mult_at_cross: decimalText(p.maxMultAtCross, 'max_mult_at_cross'),
      mc_at_cross_usd: decimalText(p.mcAtCrossUsd, 'mc_at_cross_usd', { min: 0 }),
      mint: asciiText(p.mint, 'mint'),
      predicted_at: isoMillis(p.predictedAt, 'predicted_at'),
      smart_money_in: safeInteger(p.smartMoneyIn, 'smart_money_in', { min: 0 }),
      threshold_at_cross: decimalText(p.thresholdAtCross, 'threshold_at_cross'),
      tier: oneOf(p.tier, COMPOSITE_TIERS, 'tier'),
      track: 'composite',
    };
    return sealLeaf(COMPOSITE_LEAF_V1, leaf.id, p.predictedAt, leaf);
  },
});
