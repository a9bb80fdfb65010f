import type { EnrichedMint } from './enriched-mint';

/**
 * What the public live list withholds. Spec section 8 sells real-time live data to Builder and up and gives Free
 * the list 5 minutes delayed, while `/api/live` is public and serves the landing page. The public list stays real
 * time (which mints launched, their curve, market cap, trades, rug heuristics, creator record) and withholds the
 * predictions and the buyer intelligence a key pays for; `/api/v1/live` has them (delayed for Free keys).
 */
export const PUBLIC_LIVE_WITHHELD = [
  'grad_prob',
  'grad_prob_age_bucket',
  'grad_prob_calibration',
  'last_logged_grad_prob',
  'last_logged_grad_prob_age_bucket',
  'last_logged_grad_prob_at',
  'runner_prob_2x_from_now',
  'runner_prob_3x_from_now',
  'runner_prob_5x_from_now',
  'runner_prob_10x_from_now',
  'runner_prob_20x_from_now',
  'runner_reference_price_sol',
  'rug_prob',
  'post_grad_survival_prob',
  'top_buyers',
  'smart_money_in',
] as const;

type Withheld = (typeof PUBLIC_LIVE_WITHHELD)[number];
export type PublicLiveMint = Omit<EnrichedMint, Withheld & keyof EnrichedMint> & { [K in Withheld]: K extends 'top_buyers' ? [] : null };

/** The enriched mint as the public list shows it: every withheld field null (`top_buyers` empty). */
export function publicLiveMint(m: EnrichedMint): PublicLiveMint {
  const out: Record<string, unknown> = { ...m };
  for (const f of PUBLIC_LIVE_WITHHELD) out[f] = f === 'top_buyers' ? [] : null;
  return out as PublicLiveMint;
}

/**
 * The public list's order: newest launch first. The projector orders the keyed list by `grad_prob`, which would
 * tell the public the ranking the withheld field carries.
 */
export function publicLiveOrder(mints: readonly EnrichedMint[]): EnrichedMint[] {
  return [...mints].sort((a, b) => b.created_at.localeCompare(a.created_at) || a.mint.localeCompare(b.mint));
}
