import { priceSol, type CreateEvent, type TradeEvent } from '../launch/launch-events';
import { SNIPE_WINDOW_S } from '../launch/mint-tape';
import type { MintOutcome } from '../launch/outcome-labels';
import { SCORE_AGES } from '../scoring/score-age';

/**
 * What one resolved mint contributes to the record of each wallet that bought it: the wallet-mint facts.
 * Definitions (WALLET_CONTRIBUTION_VERSION `wallet-v1`; a changed definition is a new version and a rebuild):
 * - bought: the wallet made at least one buy of the mint at or before its 24 h horizon. A wallet that did not
 *   buy contributes nothing (no contribution). The mint's creator is left out of its own mint: a dev buy is
 *   not a pick, and the creator's launches are counted apart (the `creators` table).
 * - sol invested: the SOL of its buys (gross, before any sell), in lamports; buys: how many buy trades.
 * - entry price: its volume-weighted entry, Σ SOL paid ÷ Σ tokens bought over its buys, in SOL per token.
 * - first buy offset: seconds from the mint's creation to its first buy (0 when a feed's clock puts the buy
 *   before the create event).
 * - fast snipe: first buy offset ≤ SNIPE_WINDOW_S (3 s), the window the enriched mint's `sniper_count` and the
 *   bot signals already use. Why 3 s: block times have whole-second resolution, so a window is a whole number
 *   of seconds; 3 s is about 7 slots at ~400 ms. In the recorded `logsSubscribe` session the bots acted within
 *   0–3 slots of the create (the creation-slot bundle, a sell one second later), the simulator's snipers buy
 *   at 0.4–2.5 s, and a person who reads a new listing, decides and signs does not land a buy that fast.
 * - early: first buy offset ≤ 60 s, i.e. the buy was already on the tape when the mint's last score (60 s) was
 *   taken: the wallet called it no later than the model did.
 * - graduated / rugged: the mint's versioned outcome labels (LABEL_VERSION's graduated, RUG_LABEL_VERSION's
 *   rugged; both versions are kept on the contribution).
 * - mid: neither graduated nor rugged: the launch faded or stalled. graduated + rugged + mid = 1 exactly, so
 *   a wallet's graduated + rugged + mid is its launches bought.
 * - ran: peak ≥ RAN_MULT (5) × the wallet's own entry price, the peak being the highest post-trade curve price
 *   from its first buy on (its own buys included) to the horizon, and for graduates the DEX checkpoint prices,
 *   as the outcome labels measure peaks. A wallet cannot make its own run: on a constant-product curve a buy
 *   moving vSol from a to b pays the geometric mean of the prices before and after, so its own trades lift the
 *   price at most b/a ≤ 115/30 ≈ 3.8× above what it paid.
 */
export const WALLET_CONTRIBUTION_VERSION = 'wallet-v1';
export const FAST_SNIPE_WINDOW_S = SNIPE_WINDOW_S;
export const EARLY_WINDOW_S = Math.max(...SCORE_AGES);
export const RAN_MULT = 5;

export type ResolvedMintTrades = {
  create: CreateEvent;
  /** The mint's trades in time order (as the trade store returns them); those after the horizon are ignored. */
  trades: readonly TradeEvent[];
  horizonAt: Date;
  outcome: Pick<MintOutcome, 'labelVersion' | 'graduated' | 'rugged' | 'rugLabelVersion'>;
  /** DEX prices after graduation (the lifecycle's checkpoints); they count toward peaks of graduates only. */
  checkpointPricesSol: readonly number[];
};

export type WalletMintContribution = {
  wallet: string;
  mint: string;
  version: string;
  labelVersion: string;
  rugLabelVersion: string;
  launchAt: Date;
  buys: number;
  solInvestedLamports: number;
  tokensBoughtRaw: number;
  /** SOL per token; null when the buys carried no tokens (a malformed feed row). */
  entryPriceSol: number | null;
  firstBuyAt: Date;
  lastBuyAt: Date;
  firstBuyOffsetS: number;
  fastSnipe: boolean;
  early: boolean;
  graduated: boolean;
  rugged: boolean;
  mid: boolean;
  /** Peak ÷ entry price; null without an entry price. */
  peakMultFromEntry: number | null;
  ran: boolean;
};

type Position = { firstIndex: number; buys: number; sol: number; tokens: number; firstAt: number; lastAt: number };

/**
 * Every buyer's contribution from one resolved mint, in one pass over its trades plus one over the suffix
 * maxima of the price path. Ordered by wallet, so a statement that updates their records takes row locks in
 * one order and two resolutions sharing buyers cannot deadlock.
 */
export function mintContributions(m: ResolvedMintTrades): WalletMintContribution[] {
  // rug-v2 labels only launches that did not graduate; both at once would break graduated + rugged + mid = 1.
  if (m.outcome.graduated && m.outcome.rugged) throw new RangeError(`mint ${m.create.mint} is labelled both graduated and rugged`);
  const horizonMs = m.horizonAt.getTime();
  const trades = m.trades.filter((t) => t.at.getTime() <= horizonMs);
  // peakFrom[i] = highest post-trade price of trades i..end (and of the DEX checkpoints, for graduates).
  const tail = m.outcome.graduated ? Math.max(0, ...m.checkpointPricesSol) : 0;
  const peakFrom = new Array<number>(trades.length + 1);
  peakFrom[trades.length] = tail;
  for (let i = trades.length - 1; i >= 0; i--) {
    const t = trades[i]!;
    peakFrom[i] = Math.max(peakFrom[i + 1]!, priceSol(t.vSolLamports, t.vTokensRaw));
  }
  const positions = new Map<string, Position>();
  trades.forEach((t, i) => {
    // "After its first buy" is read from the order: a store that returned trades out of time order is a bug.
    if (i > 0 && t.at.getTime() < trades[i - 1]!.at.getTime()) throw new RangeError(`trades of ${m.create.mint} are not in time order at ${t.signature}`);
    if (!t.isBuy || t.trader === m.create.creator) return;
    const at = t.at.getTime();
    const p = positions.get(t.trader);
    if (!p) positions.set(t.trader, { firstIndex: i, buys: 1, sol: t.solLamports, tokens: t.tokensRaw, firstAt: at, lastAt: at });
    else {
      p.buys++;
      p.sol += t.solLamports;
      p.tokens += t.tokensRaw;
      p.lastAt = at;
    }
  });
  const launchMs = m.create.at.getTime();
  const out: WalletMintContribution[] = [];
  for (const wallet of [...positions.keys()].sort()) {
    const p = positions.get(wallet)!;
    const entry = p.tokens > 0 ? p.sol / 1e9 / (p.tokens / 1e6) : null;
    const peakMult = entry === null ? null : peakFrom[p.firstIndex]! / entry;
    const offsetS = Math.max(0, (p.firstAt - launchMs) / 1000);
    out.push({
      wallet,
      mint: m.create.mint,
      version: WALLET_CONTRIBUTION_VERSION,
      labelVersion: m.outcome.labelVersion,
      rugLabelVersion: m.outcome.rugLabelVersion,
      launchAt: m.create.at,
      buys: p.buys,
      solInvestedLamports: p.sol,
      tokensBoughtRaw: p.tokens,
      entryPriceSol: entry,
      firstBuyAt: new Date(p.firstAt),
      lastBuyAt: new Date(p.lastAt),
      firstBuyOffsetS: offsetS,
      fastSnipe: offsetS <= FAST_SNIPE_WINDOW_S,
      early: offsetS <= EARLY_WINDOW_S,
      graduated: m.outcome.graduated,
      rugged: m.outcome.rugged,
      mid: !m.outcome.graduated && !m.outcome.rugged,
      peakMultFromEntry: peakMult,
      ran: peakMult !== null && peakMult >= RAN_MULT,
    });
  }
  return out;
}

/** One wallet's contribution from a resolved mint; null when it did not buy (it contributes nothing). */
export function walletMintContribution(m: ResolvedMintTrades, wallet: string): WalletMintContribution | null {
  return mintContributions(m).find((c) => c.wallet === wallet) ?? null;
}
