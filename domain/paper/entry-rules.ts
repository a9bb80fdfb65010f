import { buyOnCurve, type CurveReserves } from './curve-fill';
import { costLamports, type PaperPosition } from './paper-position';
import type { PaperConfig, Strategy } from './paper-config';

/**
 * When a strategy opens a position (spec section 1: entering when a non-mayhem mint's grad_prob reaches the
 * threshold at its 30 s or 60 s score).
 *
 * - The score that counts is the first that reaches the threshold: the 30 s score if it does, else the 60 s
 *   score if it does. The caller offers the scores in order; a mint entered at 30 s is never entered again at
 *   60 s, and a mint entered and already closed is never re-entered: one position per (strategy, mint), ever.
 * - The buy is filled on the curve at the reserves of the score's moment (its as-of time), fees included.
 * - No entry when the strategy's cash is below the position size (the buy may spend up to it), nor when the
 *   curve has completed (a graduated mint is not a launch any more) or the size buys nothing.
 * - Mayhem mints are out of scope (never scored; refused here too so a bad caller cannot enter one).
 */
export type ScoreEvent = {
  mint: string;
  ageS: number;
  gradProb: number;
  mayhem: boolean;
  /** The score's as-of time; the entry's time. */
  atMs: number;
  reserves: CurveReserves;
};

export type EntryContext = {
  /** A position for (strategy, mint) exists already, open or closed. */
  alreadyEntered: boolean;
  cashLamports: number;
};

export type NoEntryReason =
  'mayhem' | 'not_a_scoring_age' | 'below_threshold' | 'already_entered' | 'bankroll_too_small' | 'curve_complete' | 'amount_too_small';

export type EntryDecision = { enter: true; position: PaperPosition } | { enter: false; reason: NoEntryReason };

const isScoringAge = (ageS: number): ageS is 30 | 60 => ageS === 30 || ageS === 60;

export function decideEntry(strategy: Strategy, ev: ScoreEvent, ctx: EntryContext, c: PaperConfig): EntryDecision {
  if (!(ev.gradProb >= 0 && ev.gradProb <= 1)) throw new RangeError(`grad_prob must be a probability, got ${ev.gradProb}`);
  const no = (reason: NoEntryReason): EntryDecision => ({ enter: false, reason });
  if (ev.mayhem) return no('mayhem');
  const ageS = ev.ageS;
  if (!isScoringAge(ageS)) return no('not_a_scoring_age');
  if (ev.gradProb < strategy.threshold) return no('below_threshold');
  if (ctx.alreadyEntered) return no('already_entered');
  if (ctx.cashLamports < c.positionSizeLamports) return no('bankroll_too_small');
  const fill = buyOnCurve(ev.reserves, c.positionSizeLamports, c.curveFees);
  if (!fill.ok) return no(fill.reason);
  return {
    enter: true,
    position: {
      strategy: strategy.id,
      mint: ev.mint,
      openedAtMs: ev.atMs,
      entry: { scoreAgeS: ageS, gradProb: ev.gradProb, fill },
      lastQuote: { atMs: ev.atMs, quote: { kind: 'curve', reserves: { ...ev.reserves } } },
      exit: null,
    },
  };
}

/**
 * A strategy's cash: the bankroll, less what its positions cost, plus what the closed ones returned. Refunds are
 * never spent, so they stay in cash. Positions of other strategies are refused: each has its own bankroll.
 */
export function strategyCash(strategy: Strategy, positions: readonly PaperPosition[], c: PaperConfig): number {
  let cash = c.bankrollLamports;
  for (const p of positions) {
    if (p.strategy !== strategy.id) throw new RangeError(`position ${p.mint} belongs to ${p.strategy}, not ${strategy.id}`);
    cash -= costLamports(p);
    if (p.exit) cash += p.exit.fill.proceedsLamports;
  }
  return cash;
}
