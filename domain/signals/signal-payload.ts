import type { EnrichedMint } from '../live/enriched-mint';
import type { CompositeCross } from './cross-rules';
import type { ThresholdKind } from './rolling-threshold';
import type { Tier, TierDecision } from './tier-rules';

/**
 * The delivered signal (openapi `Signal` without the `id` and `cursor` the feed's store assigns): what
 * /api/v1/signals, the messaging bot and the webhooks all send. Aggregate counts and scalars only.
 *
 * No wallet address, by construction: the only strings are the mint, its name and symbol, the tier, the
 * threshold kind and the time. Every feature is a number, a boolean or null (the schema refuses strings there).
 * Name and symbol are chosen by the creator, so an address pasted into them (or any 32–44 character base58 run)
 * is replaced by REDACTED. The enriched mint's creator, top buyers and wallet prefixes are never read.
 *
 * Features are the mint's state at the cross (the caller snapshots them when it records the cross, so a pending
 * signal delivered seconds later still shows what made it cross). `fired_at` is when the signal became
 * deliverable; `features.pending_s` is how long it waited for its tier, so the cross time is fired_at − pending_s.
 */
export const REDACTED = '[redacted]';

const BASE58_RUN = /[1-9A-HJ-NP-Za-km-z]{32,44}/g;
const r6 = (x: number) => Math.round(x * 1e6) / 1e6;
const r6n = (x: number | null) => (x === null ? null : r6(x));

export function redactAddressLike(text: string): string {
  return text.replace(BASE58_RUN, REDACTED);
}

/** What the builder reads of the enriched mint: scalars only. */
export type SignalMintFacts = Pick<
  EnrichedMint,
  | 'mint'
  | 'name'
  | 'symbol'
  | 'trades'
  | 'unique_buyers'
  | 'v_sol'
  | 'current_mult'
  | 'curve_progress'
  | 'rug_prob'
  | 'runner_prob_5x_from_now'
  | 'n_launches_resolved'
  | 'rate_5x'
  | 'runner_creator'
  | 'rug_heuristic'
  | 'signals'
>;

export type SignalFeatureValue = number | boolean | null;
export type SignalFeatures = Record<string, SignalFeatureValue>;

export type SignalBody = {
  tier: Tier;
  mint: string;
  name: string;
  symbol: string;
  gp_60: number | null;
  composite: number;
  threshold: number;
  threshold_kind: ThresholdKind;
  smart_money_in: number;
  max_mult: number;
  market_cap_usd: number;
  age_s: number;
  fired_at: string;
  features: SignalFeatures;
};

/**
 * The feature payload at the cross. `topBuyerShare` is the k-NN feature of the same name (largest non-creator
 * net holder's share of non-creator holdings, scoring/mint-features.ts), so the bot shows what the model read.
 */
export function signalFeatures(cross: CompositeCross, facts: SignalMintFacts, extra: { gp30: number | null; topBuyerShare: number }): SignalFeatures {
  const bot = facts.signals.bot;
  const q = facts.signals.quality;
  const a = facts.signals.activity;
  const features: SignalFeatures = {
    trades: facts.trades,
    unique_buyers: facts.unique_buyers,
    v_sol: r6(facts.v_sol),
    vsol_added_60s: r6(a.vsol_added_60s),
    top_buyer_share: r6(extra.topBuyerShare),
    smart_money_in: cross.smartMoneyIn,
    max_mult: r6(cross.maxMult),
    freshness: r6(cross.freshness),
    bundle_pct: r6(bot.bundle_pct),
    sniper_count: bot.sniper_count,
    rug_prob: r6n(facts.rug_prob),
    runner_prob_5x_from_now: r6n(facts.runner_prob_5x_from_now),
    // The resolved launches the 5x rate beside it is measured over (this launch excluded).
    creator_n_launches: facts.n_launches_resolved,
    creator_rate_5x: r6n(facts.rate_5x),
    gp_30: r6n(extra.gp30),
    threshold_quantile: r6(cross.thresholdQuantile),
    threshold_samples: cross.thresholdSamples,
    current_mult: r6(facts.current_mult),
    curve_progress: r6(facts.curve_progress),
    price_sol: cross.priceSol,
    sol_usd: r6(cross.solUsd),
    bundle_detected: bot.bundle_detected,
    bot_trade_share: r6n(bot.bot_trade_share),
    top10_holder_share: r6(q.top10_holder_share),
    creator_holding_share: r6(q.creator_holding_share),
    fresh_wallet_share: r6n(q.fresh_wallet_share),
    buys_60s: a.buys_60s,
    sells_60s: a.sells_60s,
    runner_creator: facts.runner_creator,
    rug_flags_triggered: facts.rug_heuristic.filter((f) => f.triggered).length,
  };
  // One boolean and one value per rug flag, under names of our own (the flag names are a closed list).
  for (const f of facts.rug_heuristic) {
    features[`rug_${f.flag}`] = f.triggered;
    features[`rug_${f.flag}_value`] = r6(f.value);
  }
  return features;
}

export type SignalInput = {
  cross: CompositeCross;
  /** Snapshot of the enriched mint at the cross. */
  facts: SignalMintFacts;
  gp30: number | null;
  topBuyerShare: number;
  decision: Extract<TierDecision, { state: 'deliverable' }>;
  deliverableAtMs: number;
};

export function buildSignal(i: SignalInput): SignalBody {
  const c = i.cross;
  const features = signalFeatures(c, i.facts, { gp30: i.gp30, topBuyerShare: i.topBuyerShare });
  features.pending_s = r6(Math.max(0, (i.deliverableAtMs - c.crossedAtMs) / 1000));
  return {
    tier: i.decision.tier,
    mint: i.facts.mint,
    name: redactAddressLike(i.facts.name),
    symbol: redactAddressLike(i.facts.symbol),
    gp_60: r6n(i.decision.gp60),
    composite: r6(c.score),
    threshold: r6(c.threshold),
    threshold_kind: c.thresholdKind,
    smart_money_in: c.smartMoneyIn,
    max_mult: r6(c.maxMult),
    market_cap_usd: r6(c.marketCapUsd),
    age_s: r6(c.ageS),
    fired_at: new Date(i.deliverableAtMs).toISOString(),
    features,
  };
}
