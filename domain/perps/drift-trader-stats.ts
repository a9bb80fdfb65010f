import type { DriftTrade } from './drift-trade';

/**
 * Lifetime stats of a Drift (exchange_a) trader from trade rows, in both roles: as taker (`taker`,
 * `takerDirection`, taker fee) and as maker (`maker`, `makerDirection`, maker fee, negative for a rebate).
 * Volume is the quote amount. PnL is derived where it can be: per market, an average-cost position is carried
 * through the trader's fills in time order (fill price = quote ÷ base); reducing it realises
 * (price − average) × size, signed by the position's side; returning it to flat closes a round trip, a win when
 * the trip's realised PnL is positive. The position before the first row we hold is unknown and taken as flat,
 * so a trader whose history starts before the imported range gets PnL for what the range shows (documented in
 * docs/perps-observatory.md). Rows must be given in (at, fillRecordId) order.
 */
export type DriftMarketStats = { market: string; trades: number; volumeUsd: number };
export type DriftTraderStats = {
  trader: string;
  trades: number;
  volumeUsd: number;
  feesUsd: number;
  realizedPnlUsd: number;
  roundTrips: number;
  wins: number;
  winRate: number | null;
  firstTradeAt: number;
  lastTradeAt: number;
  byMarket: DriftMarketStats[];
};

type Book = { position: number; avgPx: number; tripPnl: number };
type Acc = Omit<DriftTraderStats, 'winRate' | 'byMarket'> & { markets: Map<string, DriftMarketStats>; books: Map<string, Book> };

const EPS = 1e-12;

/** `marketName` maps (type, index) to a symbol (e.g. perp 0 → SOL-PERP); the file's market when read per market. */
export function driftTraderStats(trades: readonly DriftTrade[], marketName: (t: DriftTrade) => string): Map<string, DriftTraderStats> {
  const accs = new Map<string, Acc>();
  const side = (trader: string | null, dir: 'long' | 'short' | null, fee: number, t: DriftTrade) => {
    if (!trader || !dir) return;
    const a = accs.get(trader) ?? newAcc(trader, t.at);
    accs.set(trader, a);
    const market = marketName(t);
    a.trades++;
    a.volumeUsd += t.quoteAmountUsd;
    a.feesUsd += fee;
    a.firstTradeAt = Math.min(a.firstTradeAt, t.at);
    a.lastTradeAt = Math.max(a.lastTradeAt, t.at);
    const m = a.markets.get(market) ?? { market, trades: 0, volumeUsd: 0 };
    m.trades++;
    m.volumeUsd += t.quoteAmountUsd;
    a.markets.set(market, m);
    if (t.baseAmount > EPS) carry(a, market, dir === 'long' ? t.baseAmount : -t.baseAmount, t.quoteAmountUsd / t.baseAmount);
  };
  for (const t of trades) {
    side(t.taker, t.takerDirection, t.takerFeeUsd, t);
    side(t.maker, t.makerDirection, t.makerFeeUsd, t);
  }
  const out = new Map<string, DriftTraderStats>();
  for (const [trader, { markets, books: _books, ...a }] of accs)
    out.set(trader, { ...a, winRate: a.roundTrips ? a.wins / a.roundTrips : null, byMarket: [...markets.values()].sort((x, y) => y.volumeUsd - x.volumeUsd) });
  return out;
}

function newAcc(trader: string, at: number): Acc {
  return {
    trader,
    trades: 0,
    volumeUsd: 0,
    feesUsd: 0,
    realizedPnlUsd: 0,
    roundTrips: 0,
    wins: 0,
    firstTradeAt: at,
    lastTradeAt: at,
    markets: new Map(),
    books: new Map(),
  };
}

function carry(a: Acc, market: string, signed: number, px: number): void {
  const b = a.books.get(market) ?? { position: 0, avgPx: 0, tripPnl: 0 };
  a.books.set(market, b);
  if (Math.abs(b.position) < EPS || Math.sign(b.position) === Math.sign(signed)) {
    const size = Math.abs(b.position) + Math.abs(signed);
    b.avgPx = (Math.abs(b.position) * b.avgPx + Math.abs(signed) * px) / size;
    b.position += signed;
    return;
  }
  const closing = Math.min(Math.abs(b.position), Math.abs(signed));
  const pnl = (px - b.avgPx) * closing * Math.sign(b.position);
  a.realizedPnlUsd += pnl;
  b.tripPnl += pnl;
  const rest = Math.abs(signed) - closing;
  b.position += Math.sign(signed) * closing;
  if (Math.abs(b.position) < EPS) {
    a.roundTrips++;
    if (b.tripPnl > 0) a.wins++;
    b.position = 0;
    b.tripPnl = 0;
    if (rest > EPS) {
      b.position = Math.sign(signed) * rest;
      b.avgPx = px;
    }
  }
}
