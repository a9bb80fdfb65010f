import { HORIZON_MS, PERPS_HORIZONS, type PerpsHorizon, type PerpsSide } from './perps-types';

/**
 * Judging an entry (judge-v1): at 5 minutes, 1 hour and 24 hours after detection, the market's mark price then
 * is compared with the mark price at detection. The move in basis points is signed by the entry's side
 * (a long gains when the price rises); a win is a move strictly in the entry's direction. The reference is the
 * price at detection, not the wallet's own fill price: the question is whether following the entry when we saw
 * it would have paid, and the wallet's earlier price was never available to a follower.
 */

export type EntryToJudge = { side: PerpsSide; priceAtDetection: number; detectedAt: number };
export type Judgment = { horizon: PerpsHorizon; price: number; moveBps: number; win: boolean; judgedAt: number };

export function judgeEntry(e: EntryToJudge, horizon: PerpsHorizon, price: number, judgedAt = e.detectedAt + HORIZON_MS[horizon]): Judgment {
  if (!(price > 0) || !(e.priceAtDetection > 0)) throw new RangeError('prices must be positive');
  const raw = ((price - e.priceAtDetection) / e.priceAtDetection) * 10_000;
  const moveBps = e.side === 'long' ? raw : -raw;
  return { horizon, price, moveBps, win: moveBps > 0, judgedAt };
}

/** When each horizon falls due for an entry detected at `detectedAt`. */
export function judgingSchedule(detectedAt: number): { horizon: PerpsHorizon; dueAt: number }[] {
  return PERPS_HORIZONS.map((horizon) => ({ horizon, dueAt: detectedAt + HORIZON_MS[horizon] }));
}
