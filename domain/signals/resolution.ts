import type { TradeEvent } from '../launch/launch-events';
import { LABEL_VERSION, peakMultFrom, SUSTAIN_HORIZON_S, sustained30m, type CheckpointObservation } from '../launch/outcome-labels';

/**
 * The outcome of a composite prediction, with the project's labels (outcome-labels.ts, LABEL_VERSION, stored
 * on the row) measured from the cross instead of from launch:
 * - horizon: 24 h after the cross (spec section 3), not after launch;
 * - did_graduate: the curve completed at or before the horizon; a later graduation is `false`;
 * - peak_mult_24h: the highest curve price after the cross and up to the horizon (and any post-graduation DEX
 *   checkpoint price taken by then) ÷ the curve price at the cross — peakMultFrom, never from launch;
 * - did_sustain_30m: for a graduate, sustained30m over its DEX checkpoints (held ≥ 80% of the graduation price
 *   at every checkpoint up to 30 min after graduation); null when it did not graduate, or when the 30 min
 *   checkpoint is missing (a price source that was down) and no earlier one settled it false.
 *
 * A mint graduating near the horizon has its 30 min checkpoint after it, so its resolution waits until then
 * (resolvableAt): the sustain label belongs to the graduation, and resolving at the horizon would leave it
 * unknown for ever. Those later checkpoints do not count toward the 24 h peak.
 */
export const RESOLUTION_HORIZON_S = 86_400;

export type ResolutionInput = {
  crossedAtMs: number;
  /** Curve price at the cross, SOL per token, as recorded on the row. */
  priceAtCrossSol: number;
  /** The mint's trades (any order, any time range: only those in (cross, horizon] count). */
  trades: readonly TradeEvent[];
  graduatedAtMs: number | null;
  /** DEX checkpoints after graduation: seconds after graduation, price (null when not taken), and whether it held 80%. */
  checkpoints: readonly (CheckpointObservation & { priceSol: number | null })[];
};

export type CompositeOutcome = {
  labelVersion: typeof LABEL_VERSION;
  didGraduate: boolean;
  peakMult24h: number;
  didSustain30m: boolean | null;
};

export function resolvesAtMs(crossedAtMs: number): number {
  return crossedAtMs + RESOLUTION_HORIZON_S * 1000;
}

/** When the outcome is final: the horizon, or 30 min after a graduation inside it when that is later. */
export function resolvableAtMs(crossedAtMs: number, graduatedAtMs: number | null): number {
  const horizon = resolvesAtMs(crossedAtMs);
  if (graduatedAtMs === null || graduatedAtMs > horizon) return horizon;
  return Math.max(horizon, graduatedAtMs + SUSTAIN_HORIZON_S * 1000);
}

/** The outcome at `atMs`, or null while it is not final yet. */
export function resolveComposite(i: ResolutionInput, atMs: number): CompositeOutcome | null {
  if (!(i.priceAtCrossSol > 0 && Number.isFinite(i.priceAtCrossSol)))
    throw new RangeError(`price at the cross must be a finite positive number, got ${i.priceAtCrossSol}`);
  if (atMs < resolvableAtMs(i.crossedAtMs, i.graduatedAtMs)) return null;
  const horizonMs = resolvesAtMs(i.crossedAtMs);
  const didGraduate = i.graduatedAtMs !== null && i.graduatedAtMs <= horizonMs;
  const dexPrices = didGraduate
    ? i.checkpoints.filter((c) => c.priceSol !== null && i.graduatedAtMs! + c.afterS * 1000 <= horizonMs).map((c) => c.priceSol as number)
    : [];
  return {
    labelVersion: LABEL_VERSION,
    didGraduate,
    peakMult24h: peakMultFrom(i.priceAtCrossSol, new Date(i.crossedAtMs), [...i.trades], new Date(horizonMs), dexPrices),
    didSustain30m: didGraduate ? sustained30m(i.checkpoints) : null,
  };
}
