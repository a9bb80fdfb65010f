import type { SeededRandom } from '../simulator/seeded-random';
import type { MarketState } from './sim-markets';

/**
 * The simulated traders. Each wallet has equity, a usual leverage and a skill in [0, 1]: when it opens a
 * position it takes the side of its market's hidden regime with probability ½ + 0.4·skill (a flat regime gives
 * no edge). About one in ten is skilled (skill 0.6–1), a few are whales (equity in the tens of millions, so
 * their positions pass the observatory's large-trade and whale thresholds). Flat wallets open about every
 * 30 minutes, holders close after about 45 and sometimes add a quarter or more first.
 */
export type SimPosition = { market: string; size: number; entryPx: number; leverage: number; liquidationPx: number; openedAt: number };
export type SimFill = {
  coin: string;
  px: number;
  sz: number;
  side: 'A' | 'B';
  time: number;
  startPosition: number;
  dir: string;
  closedPnl: number;
  fee: number;
  hash: string;
  oid: number;
  tid: number;
  liquidation: { liquidatedUser: string; markPx: number; method: string } | null;
};
export type SimWallet = {
  address: string;
  equity: number;
  leverage: number;
  skill: number;
  whale: boolean;
  positions: Map<string, SimPosition>;
  fills: SimFill[];
};

export const MAX_FILLS_PER_WALLET = 2000;
export const TAKER_FEE = 0.00035;
const OPEN_EVERY_MS = 30 * 60_000;
const CLOSE_EVERY_MS = 45 * 60_000;
const ADD_EVERY_MS = 120 * 60_000;

export function hexAddress(rng: SeededRandom): string {
  return `0x${Array.from(rng.bytes(20), (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export function createWallets(n: number, rng: SeededRandom): SimWallet[] {
  return Array.from({ length: n }, (_, i) => {
    const whale = i % 50 === 7;
    const skilled = rng.chance(0.1);
    return {
      address: hexAddress(rng),
      equity: whale ? rng.lognormal(20_000_000, 0.5) : rng.lognormal(40_000, 1.2),
      leverage: rng.pick([2, 3, 5, 5, 10, 10, 20]),
      skill: skilled ? rng.uniform(0.6, 1) : 0,
      whale,
      positions: new Map(),
      fills: [],
    };
  });
}

export type TradeSink = (t: {
  coin: string;
  side: 'A' | 'B';
  px: number;
  sz: number;
  time: number;
  buyer: string;
  seller: string;
  hash: string;
  tid: number;
}) => void;
export type WalletStepCtx = {
  rng: SeededRandom;
  markets: Map<string, MarketState>;
  now: number;
  dtMs: number;
  counterparty: () => string;
  ids: { next: () => number };
  emit: TradeSink;
};

export function stepWallet(w: SimWallet, c: WalletStepCtx): void {
  for (const p of [...w.positions.values()]) {
    const m = c.markets.get(p.market)!;
    const long = p.size > 0;
    if (long ? m.markPx <= p.liquidationPx : m.markPx >= p.liquidationPx) trade(w, m, -p.size, c, true);
    else if (c.rng.chance(c.dtMs / CLOSE_EVERY_MS)) trade(w, m, -p.size, c, false);
    else if (c.rng.chance(c.dtMs / ADD_EVERY_MS)) trade(w, m, roundSize(p.size * c.rng.uniform(0.3, 1), m), c, false);
  }
  if (w.positions.size < 3 && c.rng.chance(c.dtMs / OPEN_EVERY_MS)) {
    const markets = [...c.markets.values()].filter((m) => !w.positions.has(m.spec.name));
    const m = c.rng.pick(markets);
    const side = m.regime === 0 ? (c.rng.chance(0.5) ? 1 : -1) : c.rng.chance(0.5 + 0.4 * w.skill) ? m.regime : -m.regime;
    const notional = w.equity * c.rng.uniform(0.1, 0.4) * w.leverage;
    const size = roundSize(notional / m.markPx, m);
    if (size > 0) trade(w, m, side * size, c, false);
  }
}

function roundSize(size: number, m: MarketState): number {
  const f = 10 ** m.spec.szDecimals;
  return Math.floor(Math.abs(size) * f) / f;
}

/** Fills `signed` base units for `w` at the mark (a taker against the book) and books what follows. */
function trade(w: SimWallet, m: MarketState, signed: number, c: WalletStepCtx, liquidated: boolean): void {
  if (signed === 0) return;
  const coin = m.spec.name;
  const px = m.markPx;
  const held = w.positions.get(coin);
  const start = held?.size ?? 0;
  const after = start + signed;
  const closing = start !== 0 && Math.sign(start) !== Math.sign(signed) ? Math.min(Math.abs(start), Math.abs(signed)) : 0;
  const closedPnl = closing ? (px - held!.entryPx) * closing * Math.sign(start) : 0;
  const fee = Math.abs(signed) * px * (liquidated ? TAKER_FEE * 2 : TAKER_FEE);
  w.equity += closedPnl - fee;
  if (Math.abs(after) < 1e-12) w.positions.delete(coin);
  else if (start === 0 || Math.sign(after) !== Math.sign(start)) w.positions.set(coin, position(coin, after, px, w.leverage, m, c.now));
  else if (Math.abs(after) > Math.abs(start))
    w.positions.set(
      coin,
      position(coin, after, (Math.abs(start) * held!.entryPx + Math.abs(signed) * px) / Math.abs(after), held!.leverage, m, held!.openedAt),
    );
  else held!.size = after;
  m.netOi += signed;
  m.grossOi += Math.abs(after) - Math.abs(start);
  const tid = c.ids.next();
  const hash = `0x${tid.toString(16).padStart(64, '0')}`;
  const side = signed > 0 ? 'B' : 'A';
  w.fills.push({
    coin,
    px,
    sz: Math.abs(signed),
    side,
    time: c.now,
    startPosition: start,
    dir: direction(start, after),
    closedPnl,
    fee,
    hash,
    oid: tid,
    tid,
    liquidation: liquidated ? { liquidatedUser: w.address, markPx: px, method: 'market' } : null,
  });
  if (w.fills.length > MAX_FILLS_PER_WALLET) w.fills.shift();
  const other = c.counterparty();
  c.emit({ coin, side, px, sz: Math.abs(signed), time: c.now, buyer: signed > 0 ? w.address : other, seller: signed > 0 ? other : w.address, hash, tid });
}

function position(market: string, size: number, entryPx: number, leverage: number, m: MarketState, openedAt: number): SimPosition {
  // Isolated-style liquidation price: the margin (1/leverage) less the maintenance share (half the initial at max leverage).
  const maintenance = 1 / (2 * m.spec.maxLeverage);
  const lev = Math.min(leverage, m.spec.maxLeverage);
  const liquidationPx = size > 0 ? entryPx * (1 - 1 / lev + maintenance) : entryPx * (1 + 1 / lev - maintenance);
  return { market, size, entryPx, leverage: lev, liquidationPx, openedAt };
}

/** Hyperliquid's `dir` for a fill taking the position from `start` to `after`. */
function direction(start: number, after: number): string {
  if (start > 0 && after < 0) return 'Long > Short';
  if (start < 0 && after > 0) return 'Short > Long';
  if (start > 0 || (start === 0 && after > 0)) return after > start ? 'Open Long' : 'Close Long';
  return after < start ? 'Open Short' : 'Close Short';
}
