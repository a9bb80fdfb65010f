import { priceSol, type CreateEvent, type TradeEvent } from './launch-events';

/**
 * Versioned outcome labels, defined once. Changing a definition means a new LABEL_VERSION; resolved rows keep
 * the version they were labelled with, so accuracy is never computed across mixed definitions.
 *
 * v1:
 * - graduated: the curve completed (or migrated) at or before the 24 h horizon.
 * - peak price: highest post-trade curve price within the horizon, and any post-graduation DEX checkpoint price.
 * - peak_mult_24h of a prediction: peak price after the prediction's as-of time ÷ the price at that time.
 * - rugged: versioned on its own (RUG_LABEL_VERSION, stored with each outcome), see rugLabel below.
 * - sustained_30m (graduates only): the DEX price held ≥ 80% of the graduation price at every checkpoint up to
 *   30 min after graduation, the 30 min checkpoint included. A checkpoint below 80% settles it false even if
 *   a later one is missing; with no price at 30 min and no earlier fall it is unknown (null).
 * - peak_mult_from_launch: peak price ÷ launch price (the creator record's 5× uses it; runner odds never do).
 */
export const LABEL_VERSION = 'v1';

/**
 * The rug label, versioned apart from the others so a better rug definition does not orphan the graduation
 * corpus.
 * - rug-v1 (first deployment): not graduated, final price ≤ 30% of the peak, and an insider sold. On a bonding
 *   curve the price cannot fall much below the launch price, so that only caught rugs after a ≥ 3.3× pump: 4
 *   of 1,071 simulated launches, against 528 rug fates among 1,775.
 * - rug-v2: not graduated within the horizon, and
 *   (a) the insiders (the creator and every wallet that bought in the creation slot) sold at least
 *       RUG_INSIDER_SOLD_SHARE of the tokens they bought — an exit, not a trim;
 *   (b) the price pumped to at least RUG_MIN_PUMP × launch; and
 *   (c) it gave back at least RUG_GIVEBACK of its gain: final − launch ≤ (1 − RUG_GIVEBACK) × (peak − launch).
 *   On the simulator: 235 of 1,071 launches.
 */
export const RUG_LABEL_VERSION = 'rug-v2';
export const RUG_INSIDER_SOLD_SHARE = 0.5;
export const RUG_MIN_PUMP = 1.25;
export const RUG_GIVEBACK = 0.7;
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
  rugLabelVersion: string;
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
  return {
    labelVersion: LABEL_VERSION,
    graduated,
    timeToGraduationS: graduated ? (o.graduatedAt!.getTime() - o.create.at.getTime()) / 1000 : null,
    peakPriceSol: peak,
    finalPriceSol: finalPrice,
    peakMultFromLaunch: peak / launchPrice,
    sustained30m: graduated ? sustained30m(o.checkpoints ?? []) : null,
    rugged: !graduated && rugLabel(o.create, inWindow, launchPrice, peak, finalPrice),
    rugLabelVersion: RUG_LABEL_VERSION,
  };
}

/** Conditions (a)–(c) of rug-v2 on the curve's trades within the horizon. */
function rugLabel(create: CreateEvent, trades: readonly TradeEvent[], launch: number, peak: number, final: number): boolean {
  const slot = create.slot;
  const insiders = new Set([create.creator, ...trades.filter((t) => t.isBuy && slot !== null && t.slot === slot).map((t) => t.trader)]);
  let bought = 0;
  let sold = 0;
  for (const t of trades) {
    if (!insiders.has(t.trader)) continue;
    if (t.isBuy) bought += t.tokensRaw;
    else sold += t.tokensRaw;
  }
  const exited = bought > 0 && sold >= RUG_INSIDER_SOLD_SHARE * bought;
  return exited && peak >= RUG_MIN_PUMP * launch && final - launch <= (1 - RUG_GIVEBACK) * (peak - launch);
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
