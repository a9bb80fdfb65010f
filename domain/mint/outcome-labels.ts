import { priceSol, type CreateEvent, type TradeEvent } from './launch-events';

/**
 * Versioned outcome labels, defined once. Changing a definition means a new LABEL_VERSION; resolved rows keep
 * the version they were labelled with, so accuracy is never computed across mixed definitions.
 *
 * v1:
 * - graduated: the curve completed (or migrated) at or before the 24 h horizon.
 * - peak price: highest post-trade curve price within the horizon, and any post-graduation DEX checkpoint price.
 * - peak_mult_24h of a prediction: peak price after the prediction's as-of time ÷ the price at that time.
 * - rugged: not graduated, and the final price fell to ≤ 30% of the peak while the creator (or a wallet that
 *   bought in the creation slot) sold — a dump, not a slow fade.
 * - sustained_30m (graduates only): the DEX price held ≥ 80% of the graduation price at every checkpoint up to
 *   30 min after graduation, the 30 min checkpoint included. A checkpoint below 80% settles it false even if
 *   a later one is missing; with no price at 30 min and no earlier fall it is unknown (null).
 * - peak_mult_from_launch: peak price ÷ launch price (the creator record's 5× uses it; runner odds never do).
 */
export const LABEL_VERSION = 'v1';
export const RUG_FINAL_TO_PEAK = 0.3;
export const SUSTAIN_SHARE = 0.8;
/** The sustain horizon after graduation, and the DEX checkpoints the lifecycle takes up to it. */
export const SUSTAIN_HORIZON_S = 1800;

export type CheckpointObservation = { afterS: number; held80: boolean | null };

export type OutcomeInput = {
  create: CreateEvent;
  /** Trades up to the horizon, in time order. */
  trades: TradeEvent[];
  horizonAt: Date;
  graduatedAt: Date | null;
  checkpointPricesSol: number[];
  checkpoints?: readonly CheckpointObservation[];
};

export type MintOutcome = {
  labelVersion: string;
  graduated: boolean;
  timeToGraduationS: number | null;
  peakPriceSol: number;
  finalPriceSol: number;
  peakMultFromLaunch: number;
  rugged: boolean;
  sustained30m: boolean | null;
};

export function resolveOutcome(o: OutcomeInput): MintOutcome {
  const launchPrice = priceSol(o.create.vSolLamports, o.create.vTokensRaw);
  const inWindow = o.trades.filter((t) => t.at.getTime() <= o.horizonAt.getTime());
  const graduated = o.graduatedAt !== null && o.graduatedAt.getTime() <= o.horizonAt.getTime();
  let peak = launchPrice;
  for (const t of inWindow) peak = Math.max(peak, priceSol(t.vSolLamports, t.vTokensRaw));
  if (graduated) for (const p of o.checkpointPricesSol) peak = Math.max(peak, p);
  const last = inWindow[inWindow.length - 1];
  const finalPrice = last ? priceSol(last.vSolLamports, last.vTokensRaw) : launchPrice;
  const slot = o.create.slot;
  const insiders = new Set([o.create.creator, ...inWindow.filter((t) => t.isBuy && slot !== null && t.slot === slot).map((t) => t.trader)]);
  const insiderSold = inWindow.some((t) => !t.isBuy && insiders.has(t.trader));
  return {
    labelVersion: LABEL_VERSION,
    graduated,
    timeToGraduationS: graduated ? (o.graduatedAt!.getTime() - o.create.at.getTime()) / 1000 : null,
    peakPriceSol: peak,
    finalPriceSol: finalPrice,
    peakMultFromLaunch: peak / launchPrice,
    sustained30m: graduated ? sustained30m(o.checkpoints ?? []) : null,
    rugged: !graduated && insiderSold && finalPrice <= RUG_FINAL_TO_PEAK * peak,
  };
}

/** Peak multiple reached after `asOf`, measured from the price at `asOf` (never from launch). */
export function peakMultFrom(priceAtAsOf: number, asOf: Date, trades: TradeEvent[], horizonAt: Date, checkpointPricesSol: number[] = []): number {
  if (priceAtAsOf <= 0) return 1;
  let peak = priceAtAsOf;
  for (const t of trades) {
    const ms = t.at.getTime();
    if (ms > asOf.getTime() && ms <= horizonAt.getTime()) peak = Math.max(peak, priceSol(t.vSolLamports, t.vTokensRaw));
  }
  for (const p of checkpointPricesSol) peak = Math.max(peak, p);
  return peak / priceAtAsOf;
}

/** Curve price at a moment: the last trade at or before it, else the launch price. */
export function priceAt(create: CreateEvent, trades: TradeEvent[], at: Date): number {
  let p = priceSol(create.vSolLamports, create.vTokensRaw);
  for (const t of trades) {
    if (t.at.getTime() > at.getTime()) break;
    p = priceSol(t.vSolLamports, t.vTokensRaw);
  }
  return p;
}

/** The sustain_30m label of one graduate from its DEX checkpoints (see the v1 definition above). */
export function sustained30m(checkpoints: readonly CheckpointObservation[]): boolean | null {
  const within = checkpoints.filter((c) => c.afterS <= SUSTAIN_HORIZON_S);
  if (within.some((c) => c.held80 === false)) return false;
  return within.some((c) => c.afterS === SUSTAIN_HORIZON_S && c.held80 === true) ? true : null;
}
