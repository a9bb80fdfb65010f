import { METADATA_NOT_FETCHED, type MetadataQuality } from '../metadata/launch-metadata';
import { manufacturedPump } from './manufactured-pump';
import type { MintTape } from './mint-tape';
import { creatorHoldingShare, holderConcentration } from './rug-heuristics';
import { freshWalletShare, type Freshness } from './wallet-freshness';

/**
 * Bot, quality and activity signals and the top buyers of the enriched mint, from the curve's own trades.
 * Definitions (v1):
 * - bot wallets: non-creator wallets that sniped (first buy within SNIPE_WINDOW_S of the creation), bought in
 *   the creation slot (bundle), or flipped (first sell within FLIP_WINDOW_S of their first buy).
 *   `bot_trade_share` is their trades ÷ all trades; null before the first trade.
 * - `manufactured_pump`: the fingerprint of a too-steady climb over the first 40 s (manufactured-pump.ts); null
 *   until the mint is 40 s old.
 * - `has_socials` and `metadata_ok`: from the launch's metadata JSON as the metadata fetcher stored it
 *   (domain/metadata/launch-metadata.ts); null until it has been fetched, never guessed.
 * - `fresh_wallet_share`: buyers with no launchpad trade before the creation (wallet-freshness.ts); null until
 *   looked up.
 * - top buyers: the 10 wallets with the most net SOL in that still hold tokens; `smart_score` from the wallet
 *   index, looked up by the full address (domain/wallets/smart-money.ts), else null.
 */
export const FLIP_WINDOW_S = 10;
export const TOP_BUYERS = 10;
export const WALLET_PREFIX_LENGTH = 12;

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

export function botWallets(tape: MintTape): Set<string> {
  const bots = new Set([...tape.sniperWallets(), ...tape.bundleWallets]);
  for (const [wallet, w] of tape.wallets) {
    if (w.firstBuyAt !== null && w.firstSellAt !== null && w.firstSellAt >= w.firstBuyAt && w.firstSellAt - w.firstBuyAt <= FLIP_WINDOW_S * 1000)
      bots.add(wallet);
  }
  bots.delete(tape.create.creator);
  return bots;
}

export function botTradeShare(tape: MintTape): number | null {
  if (tape.trades === 0) return null;
  let n = 0;
  for (const b of botWallets(tape)) n += tape.wallets.get(b)?.trades ?? 0;
  return Math.min(1, n / tape.trades);
}

export function mintSignals(tape: MintTape, nowMs: number, freshness: Freshness, metadata: MetadataQuality = METADATA_NOT_FETCHED) {
  const act = tape.activity60s(nowMs);
  const bundle = tape.bundle();
  const bots = botTradeShare(tape);
  const fresh = freshWalletShare(tape, freshness);
  return {
    bot: {
      bundle_detected: tape.bundleWallets.size >= 2,
      bundle_pct: r6(Math.min(1, bundle.pct)),
      sniper_count: tape.snipers(),
      bot_trade_share: bots === null ? null : r6(bots),
      manufactured_pump: manufacturedPump({ launchPrice: tape.launchPrice, closes: tape.pumpCloses }, (nowMs - tape.create.at.getTime()) / 1000),
    },
    quality: {
      has_socials: metadata.has_socials,
      metadata_ok: metadata.metadata_ok,
      top10_holder_share: r6(holderConcentration(tape)),
      creator_holding_share: r6(creatorHoldingShare(tape)),
      fresh_wallet_share: fresh === null ? null : r6(fresh),
    },
    activity: {
      buys_60s: act.buys,
      sells_60s: act.sells,
      vsol_added_60s: r6(act.vSolAdded / 1e9),
      buy_sell_ratio_60s: act.sells === 0 ? null : r6(act.buys / act.sells),
      last_trade_at: tape.lastTradeAt ? tape.lastTradeAt.toISOString() : null,
    },
  };
}
export type MintSignals = ReturnType<typeof mintSignals>;

/** The top buyers under their full addresses, best first: the wallets `topBuyers` lists by prefix. */
export function topBuyerWallets(tape: MintTape): { wallet: string; solIn: number; share: number }[] {
  return tape
    .holderShares()
    .filter((h) => h.wallet !== tape.create.bondingCurve)
    .sort((a, b) => b.solIn - a.solIn || b.share - a.share)
    .slice(0, TOP_BUYERS);
}

export function topBuyers(tape: MintTape, smartScores: ReadonlyMap<string, number> = new Map()) {
  return topBuyerWallets(tape).map((h) => {
    const prefix = h.wallet.slice(0, WALLET_PREFIX_LENGTH);
    return { wallet_prefix: prefix, sol_in: r6(h.solIn), share: r6(Math.min(1, h.share)), smart_score: smartScores.get(prefix) ?? null };
  });
}
