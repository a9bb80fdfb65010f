import type { CreateEvent, TradeEvent } from '../launch/launch-events';
import { MintTape } from '../launch/mint-tape';
import { peakMultFrom } from '../launch/outcome-labels';
import { runnerNowFeatures, type RunnerNowFeatures } from './runner-now-features';

/**
 * The ages the from-now runner model learns at: one corpus row per resolved mint per grid age, and one model per
 * grid age. They cover the live window (LIVE_WINDOW_S, 5 min by default, up to 30 min where an operator widens it)
 * densely where a mint's state changes fastest. A live mint is served by the grid age nearest its own age on a log
 * scale (a mint at 4 min is closer to its 5 min neighbours than to its 2 min ones); past the last, by the last.
 */
export const RUNNER_GRID_AGES_S = [10, 30, 60, 120, 300, 600, 1200, 1800] as const;
export type RunnerGridAge = (typeof RUNNER_GRID_AGES_S)[number];

export function runnerGridAge(ageS: number): RunnerGridAge {
  if (!(ageS >= 0)) throw new RangeError(`age must be >= 0, got ${ageS}`);
  const l = Math.log(Math.max(ageS, 1));
  let best: RunnerGridAge = RUNNER_GRID_AGES_S[0];
  for (const g of RUNNER_GRID_AGES_S) if (Math.abs(Math.log(g) - l) < Math.abs(Math.log(best) - l)) best = g;
  return best;
}

/** One corpus row: the mint as it stood at `ageS`, and how far its price rose after that. */
export type RunnerObservation = {
  ageS: RunnerGridAge;
  /** Creation + age. */
  observedAt: Date;
  features: RunnerNowFeatures;
  /** Curve price at `observedAt`: what the label is measured from. */
  priceSol: number;
  /** Peak price after `observedAt` within the horizon ÷ `priceSol` (outcome-labels' peakMultFrom). */
  peakMult: number;
};

/**
 * The grid rows of one resolved mint, point in time: each row's features fold only the trades at or before its
 * cutoff (the same block-second rule as mint-features.ts), and its label only what came after. Ages past the
 * horizon, and ages at or after graduation (the curve has stopped; nothing is live to give odds for), get no row.
 * `checkpointPricesSol` (post-graduation DEX prices) count toward the peak only for a graduate, as at resolution.
 */
export function runnerObservations(i: {
  create: CreateEvent;
  tradesAnyOrder: readonly TradeEvent[];
  graduatedAt: Date | null;
  horizonAt: Date;
  checkpointPricesSol?: readonly number[];
}): RunnerObservation[] {
  const { create } = i;
  const trades = [...i.tradesAnyOrder].sort((a, b) => a.at.getTime() - b.at.getTime() || (a.slot ?? 0) - (b.slot ?? 0));
  for (const t of trades) if (t.mint !== create.mint) throw new RangeError(`trade ${t.signature} is for ${t.mint}, not ${create.mint}`);
  const dex = i.graduatedAt ? [...(i.checkpointPricesSol ?? [])] : [];
  const tape = new MintTape(create);
  const out: RunnerObservation[] = [];
  let next = 0;
  for (const ageS of RUNNER_GRID_AGES_S) {
    const cutoff = create.at.getTime() + ageS * 1000;
    if (cutoff > i.horizonAt.getTime()) break;
    if (i.graduatedAt && i.graduatedAt.getTime() <= cutoff) break;
    while (next < trades.length && trades[next]!.at.getTime() <= cutoff) tape.apply(trades[next++]!);
    const observedAt = new Date(cutoff);
    const priceSol = tape.price;
    out.push({ ageS, observedAt, features: runnerNowFeatures(tape, cutoff), priceSol, peakMult: peakMultFrom(priceSol, observedAt, trades, i.horizonAt, dex) });
  }
  return out;
}
