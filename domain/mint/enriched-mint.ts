import { CURVE } from './launch-events';
import type { MintTape } from './mint-tape';
import { hideReason, rugFlags } from './rug-heuristics';

/** The latest logged prediction of a mint, as the live list shows it. */
export type LatestPrediction = { ageBucket: number; gradProb: number; calibration: Record<string, unknown> };
export type CreatorRecord = { nLaunches: number; nResolved: number; n5x: number };

export type EnrichInput = {
  tape: MintTape;
  now: Date;
  prediction: LatestPrediction | null;
  creator: CreatorRecord | null;
  solUsd: number | null;
  freshFirst3: number | null;
  graduatedAt: Date | null;
};

/** A score is the mint's state at its age bucket; once the mint is past this age it is no longer shown. */
export const GRAD_PROB_SHOWN_UNTIL_S = 120;

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** Builds the enriched mint record (openapi `EnrichedMint`). Fields whose model is not live yet are null. */
export function enrichMint(i: EnrichInput) {
  const { tape, now } = i;
  const c = tape.create;
  const ageS = Math.max(0, (now.getTime() - c.at.getTime()) / 1000);
  const price = tape.price;
  const mcapSol = price * (CURVE.totalSupplyRaw / 1e6);
  const act = tape.activity60s(now.getTime());
  const holders = tape.holderShares();
  const flags = rugFlags(tape, i.freshFirst3);
  const bundle = tape.bundle();
  const showScore = i.prediction !== null && ageS < GRAD_PROB_SHOWN_UNTIL_S;
  const creatorHolding = tape.wallets.get(c.creator);
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
    grad_prob: showScore ? i.prediction!.gradProb : null,
    grad_prob_age_bucket: showScore ? i.prediction!.ageBucket : null,
    grad_prob_calibration: showScore ? i.prediction!.calibration : null,
    runner_prob_2x_from_now: null,
    runner_prob_3x_from_now: null,
    runner_prob_5x_from_now: null,
    runner_prob_10x_from_now: null,
    runner_prob_20x_from_now: null,
    runner_creator: i.creator ? i.creator.n5x > 0 : null,
    rate_5x: i.creator && i.creator.nResolved > 0 ? r6(i.creator.n5x / i.creator.nResolved) : null,
    n_launches: i.creator ? i.creator.nLaunches : null,
    rug_heuristic: flags,
    rug_prob: null,
    post_grad_survival_prob: null,
    post_grad_survival_status: 'suspended' as const,
    signals: {
      bot: {
        bundle_detected: tape.bundleWallets.size >= 2,
        bundle_pct: r6(Math.min(1, bundle.pct)),
        sniper_count: tape.snipers(),
        bot_trade_share: null,
        manufactured_pump: null,
      },
      quality: {
        has_socials: null,
        metadata_ok: null,
        top10_holder_share: r6(Math.min(1, holders.slice(0, 10).reduce((s, h) => s + h.share, 0))),
        creator_holding_share: creatorHolding ? r6(Math.min(1, creatorHolding.tokens / CURVE.totalSupplyRaw)) : 0,
        fresh_wallet_share: null,
      },
      activity: {
        buys_60s: act.buys,
        sells_60s: act.sells,
        vsol_added_60s: r6(act.vSolAdded / 1e9),
        buy_sell_ratio_60s: act.sells === 0 ? null : r6(act.buys / act.sells),
        last_trade_at: tape.lastTradeAt ? tape.lastTradeAt.toISOString() : null,
      },
    },
    top_buyers: holders
      .slice()
      .sort((a, b) => b.solIn - a.solIn)
      .slice(0, 10)
      .map((h) => ({ wallet_prefix: h.wallet.slice(0, 12), sol_in: r6(h.solIn), share: r6(Math.min(1, h.share)), smart_score: null })),
    hide_reason: hideReason(flags),
    graduated_at: i.graduatedAt ? i.graduatedAt.toISOString() : null,
    updated_at: (tape.lastTradeAt ?? c.at).toISOString(),
  };
}
export type EnrichedMint = ReturnType<typeof enrichMint>;
