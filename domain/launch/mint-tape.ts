import { CURVE, priceSol, type CreateEvent, type TradeEvent } from './launch-events';
import { pumpBarOf } from './manufactured-pump';

/**
 * Everything the enriched record needs about one mint, folded trade by trade so the live projector can update
 * it incrementally. Memory per mint is bounded: wallets are bounded by the curve's buyers, and the 60 s
 * activity window keeps only trades younger than a minute.
 */
export type WalletPosition = {
  solIn: number;
  tokens: number;
  bought: number;
  sold: number;
  trades: number;
  firstBuyAt: number | null;
  firstSellAt: number | null;
};

/** A buy this soon after the creation is a sniper's (no person reads a new listing that fast). */
export const SNIPE_WINDOW_S = 3;

export class MintTape {
  vSol: number;
  vTokens: number;
  trades = 0;
  sells = 0;
  lastTradeAt: Date | null = null;
  readonly wallets = new Map<string, WalletPosition>();
  /** Wallets that bought in the creation slot (bundle candidates), excluding the creator. */
  readonly bundleWallets = new Set<string>();
  readonly firstBuyers: string[] = [];
  /** Highest curve price seen since launch (the composite score's max_mult is this over the launch price). */
  peakPrice: number;
  /** The early price path the manufactured-pump fingerprint reads: per 5 s bar, the price after its last trade. */
  readonly pumpCloses: (number | undefined)[] = [];
  private readonly recent: { at: number; isBuy: boolean; vSolDelta: number }[] = [];

  constructor(readonly create: CreateEvent) {
    this.vSol = create.vSolLamports;
    this.vTokens = create.vTokensRaw;
    this.peakPrice = priceSol(create.vSolLamports, create.vTokensRaw);
  }

  apply(t: TradeEvent): void {
    const prevVSol = this.vSol;
    this.vSol = t.vSolLamports;
    this.vTokens = t.vTokensRaw;
    if (t.vTokensRaw > 0) this.peakPrice = Math.max(this.peakPrice, priceSol(t.vSolLamports, t.vTokensRaw));
    this.trades++;
    this.lastTradeAt = t.at;
    const bar = pumpBarOf(t.at.getTime(), this.create.at.getTime());
    if (bar !== null && t.vTokensRaw > 0) this.pumpCloses[bar] = priceSol(t.vSolLamports, t.vTokensRaw);
    const w = this.wallets.get(t.trader) ?? { solIn: 0, tokens: 0, bought: 0, sold: 0, trades: 0, firstBuyAt: null, firstSellAt: null };
    w.trades++;
    if (t.isBuy) {
      w.solIn += t.solLamports;
      w.tokens += t.tokensRaw;
      w.bought += t.tokensRaw;
      if (w.firstBuyAt === null) {
        w.firstBuyAt = t.at.getTime();
        if (t.trader !== this.create.creator && this.firstBuyers.length < 3) this.firstBuyers.push(t.trader);
      }
      if (t.trader !== this.create.creator && this.create.slot !== null && t.slot === this.create.slot) this.bundleWallets.add(t.trader);
    } else {
      this.sells++;
      w.firstSellAt ??= t.at.getTime();
      w.solIn -= t.solLamports;
      w.tokens = Math.max(0, w.tokens - t.tokensRaw);
      w.sold += t.tokensRaw;
    }
    this.wallets.set(t.trader, w);
    this.recent.push({ at: t.at.getTime(), isBuy: t.isBuy, vSolDelta: t.vSolLamports - prevVSol });
  }

  get launchPrice(): number {
    return priceSol(this.create.vSolLamports, this.create.vTokensRaw);
  }
  get price(): number {
    return priceSol(this.vSol, this.vTokens);
  }
  get uniqueBuyers(): number {
    let n = 0;
    for (const w of this.wallets.values()) if (w.bought > 0) n++;
    return n;
  }
  /** Share of the real token reserve sold; 1 at graduation. */
  get curveProgress(): number {
    const sold = CURVE.initialVTokensRaw - this.vTokens;
    return Math.min(1, Math.max(0, sold / CURVE.realTokensForSaleRaw));
  }

  /** Buys, sells and net virtual SOL added over the 60 s before `nowMs`; older entries are dropped. */
  activity60s(nowMs: number): { buys: number; sells: number; vSolAdded: number } {
    while (this.recent.length && nowMs - this.recent[0]!.at > 60_000) this.recent.shift();
    let buys = 0;
    let sells = 0;
    let vSolAdded = 0;
    for (const r of this.recent) {
      if (r.isBuy) buys++;
      else sells++;
      vSolAdded += r.vSolDelta;
    }
    return { buys, sells, vSolAdded };
  }

  holderShares(): { wallet: string; share: number; solIn: number }[] {
    return [...this.wallets.entries()]
      .filter(([, w]) => w.tokens > 0)
      .map(([wallet, w]) => ({ wallet, share: w.tokens / CURVE.totalSupplyRaw, solIn: Math.max(0, w.solIn) / 1e9 }))
      .sort((a, b) => b.share - a.share);
  }

  /** Share of supply bought by the bundle, and how much of it the bundle has sold. */
  bundle(): { pct: number; soldShare: number } {
    let bought = 0;
    let sold = 0;
    for (const w of this.bundleWallets) {
      const p = this.wallets.get(w);
      if (p) {
        bought += p.bought;
        sold += p.sold;
      }
    }
    return { pct: bought / CURVE.totalSupplyRaw, soldShare: bought > 0 ? Math.min(1, sold / bought) : 0 };
  }

  /** Non-creator wallets whose first buy came within SNIPE_WINDOW_S of the creation. */
  sniperWallets(): string[] {
    const cutoff = this.create.at.getTime() + SNIPE_WINDOW_S * 1000;
    const out: string[] = [];
    for (const [wallet, w] of this.wallets) if (wallet !== this.create.creator && w.firstBuyAt !== null && w.firstBuyAt <= cutoff) out.push(wallet);
    return out;
  }

  snipers(): number {
    return this.sniperWallets().length;
  }
}
