import type { MetadataQuality } from '../metadata/launch-metadata';
import type { RunnerOdds } from '../scoring/runner-model';
import type { CreatorRecord } from '../launch/creator-record';
import { CURVE } from '../launch/launch-events';
import { mintSignals, topBuyers } from '../launch/mint-signals';
import type { MintTape } from '../launch/mint-tape';
import { hideReason, rugFlags } from '../launch/rug-heuristics';
import { freshFirst3, type Freshness } from '../launch/wallet-freshness';

/** The latest logged prediction of a mint, as the live list and probe show it. */
export type LatestPrediction = {
  ageBucket: number;
  asOf: Date;
  gradProb: number;
  calibration: Record<string, unknown>;
  /** Curve price at `asOf`: what the runner odds are measured from. */
  priceSol: number;
  rugProb: number | null;
  runnerOdds: RunnerOdds | null;
  survivalProb: number | null;
};

export type EnrichInput = {
  tape: MintTape;
  now: Date;
  prediction: LatestPrediction | null;
  creator: CreatorRecord;
  /** The creator's non-mayhem launches as known now, resolved and open, this one included. */
  creatorLaunches: number;
  solUsd: number | null;
  freshness: Freshness;
  graduatedAt: Date | null;
  /** The post-graduation survival gate is live: survival scores may be published. */
  survivalLive: boolean;
  /** Published smart scores of the top buyers by 12-character prefix (domain/wallets/smart-money.ts). */
  smartScores?: ReadonlyMap<string, number>;
  /** How many top buyers are smart wallets, each looked up by its full address; 0 when none is (or no index is consulted). */
  smartMoneyIn?: number;
  /** Runner odds from the mint's current price (the live refresh's from-now model); absent or null: not available. */
  runnerFromNow?: RunnerOddsFrom | null;
  /** The launch's metadata as fetched (`mint_metadata`); absent: not fetched yet, both fields null. */
  metadata?: MetadataQuality;
};

/** Runner odds and the moment they start from: the mint's age, its curve price then, and when that was. */
export type RunnerOddsFrom = { odds: RunnerOdds; ageS: number; priceSol: number; at: Date };

/**
 * Spec section 1 produces grad_prob only while a mint is "about" 30 s or 60 s old and null for older mints. A score
 * is the mint's state at its age bucket, so it is shown from when it is logged until GRAD_PROB_ABOUT_S past its
 * bucket: half the spacing of the two buckets, so a mint is never "about" both ages, and wide enough for a score
 * logged a few seconds late and a live refresh a few seconds after it. The 30 s score is shown up to 45 s, the 60 s
 * score up to 75 s; between them and after them `grad_prob` is null, and the last logged score stays readable as
 * `last_logged_grad_prob`. The runner odds logged with a score travel with it and are measured from the price at
 * scoring; they are shown only with the score and only when the live refresh has no odds from the current price for
 * the mint (its model still warming, or a mint the refresh does not hold).
 */
export const GRAD_PROB_ABOUT_S = 15;
/** The oldest age at which any score is shown: the 60 s bucket plus its window. */
export const GRAD_PROB_SHOWN_UNTIL_S = 60 + GRAD_PROB_ABOUT_S;

/** Whether a score logged at `ageBucket` is shown on a mint `ageS` old. */
export function gradProbShown(ageS: number, ageBucket: number): boolean {
  return ageS < ageBucket + GRAD_PROB_ABOUT_S;
}

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** Builds the enriched mint record (openapi `EnrichedMint`). Fields whose model is not live yet are null. */
export function enrichMint(i: EnrichInput) {
  const { tape, now } = i;
  const c = tape.create;
  const ageS = Math.max(0, (now.getTime() - c.at.getTime()) / 1000);
  const price = tape.price;
  const mcapSol = price * (CURVE.totalSupplyRaw / 1e6);
  const flags = rugFlags(tape, freshFirst3(tape, i.freshness));
  const p = i.prediction;
  const showScore = p !== null && gradProbShown(ageS, p.ageBucket);
  const from = runnerOddsFrom(i, showScore);
  const odds = from?.odds ?? null;
  const signals = mintSignals(tape, now.getTime(), i.freshness, i.metadata);
  return {
    mint: c.mint,
    name: c.name,
    symbol: c.symbol,
    creator: c.creator,
    created_at: c.at.toISOString(),
    age_s: r6(ageS),
    mayhem: false as const,
    v_sol: r6(tape.vSol / 1e9),
    v_tokens: r6(tape.vTokens / 1e6),
    price_sol: price,
    market_cap_sol: r6(mcapSol),
    market_cap_usd: i.solUsd === null ? null : r6(mcapSol * i.solUsd),
    current_mult: r6(price / tape.launchPrice),
    curve_progress: r6(tape.curveProgress),
    trades: tape.trades,
    unique_buyers: tape.uniqueBuyers,
    grad_prob: showScore ? p.gradProb : null,
    grad_prob_age_bucket: showScore ? p.ageBucket : null,
    grad_prob_calibration: showScore ? p.calibration : null,
    // Outside the window the score is not "produced" but it was logged: kept under its own name so nothing is lost.
    last_logged_grad_prob: p ? p.gradProb : null,
    last_logged_grad_prob_age_bucket: p ? p.ageBucket : null,
    last_logged_grad_prob_at: p ? p.asOf.toISOString() : null,
    runner_prob_2x_from_now: odds ? odds['2x'] : null,
    runner_prob_3x_from_now: odds ? odds['3x'] : null,
    runner_prob_5x_from_now: odds ? odds['5x'] : null,
    runner_prob_10x_from_now: odds ? odds['10x'] : null,
    runner_prob_20x_from_now: odds ? odds['20x'] : null,
    runner_reference_price_sol: from ? from.priceSol : null,
    runner_odds_from: from ? { age_s: r6(from.ageS), price_sol: from.priceSol, at: from.at.toISOString() } : null,
    runner_creator: i.creator.runnerCreator,
    rate_5x: i.creator.rate5x === null ? null : r6(i.creator.rate5x),
    // As known now, this launch included; the resolved launches (this one excluded) that rate_5x is measured over beside it.
    n_launches: i.creatorLaunches,
    n_launches_resolved: i.creator.nLaunches,
    rug_heuristic: flags,
    rug_prob: p?.rugProb ?? null,
    post_grad_survival_prob: i.survivalLive ? (p?.survivalProb ?? null) : null,
    post_grad_survival_status: i.survivalLive ? ('live' as const) : ('suspended' as const),
    signals,
    top_buyers: topBuyers(tape, i.smartScores),
    smart_money_in: i.smartMoneyIn ?? 0,
    hide_reason: hideReason(flags),
    graduated_at: i.graduatedAt ? i.graduatedAt.toISOString() : null,
    updated_at: (tape.lastTradeAt ?? c.at).toISOString(),
    // The published CLI (`goracle live`, `probe`) reads these names: v_sol in lamports, two bot signals at the top.
    virtual_sol_reserves: Math.round(tape.vSol),
    bundle_detected: signals.bot.bundle_detected,
    manufactured_pump: signals.bot.manufactured_pump,
  };
}
export type EnrichedMint = ReturnType<typeof enrichMint>;

/**
 * Where the published runner odds start: from the current price while the mint is on the curve and the from-now
 * model answers; else the odds logged with a shown score, from the price at scoring. A graduated mint's curve has
 * stopped, so it gets no from-now odds.
 */
function runnerOddsFrom(i: EnrichInput, showScore: boolean): RunnerOddsFrom | null {
  if (i.runnerFromNow && i.graduatedAt === null) return i.runnerFromNow;
  const p = i.prediction;
  if (!showScore || !p?.runnerOdds) return null;
  return { odds: p.runnerOdds, ageS: Math.max(0, (p.asOf.getTime() - i.tape.create.at.getTime()) / 1000), priceSol: p.priceSol, at: p.asOf };
}
