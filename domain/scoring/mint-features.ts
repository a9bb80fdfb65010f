import { priceSol, type CreateEvent, type TradeEvent } from '../launch/launch-events';
import type { LaunchFeatures } from './launch-features';

/**
 * A mint's state at a fixed age, from its create event and the trades seen up to that age. The same
 * function computes the features of a live mint and of every corpus row, so scoring and training can never
 * disagree on a definition.
 *
 * Decisions:
 * - Only trades with `at <= created + ageS` count (block times are whole seconds, so a trade in the same
 *   second as the cutoff counts). Trades may arrive in any order; "now" is the last trade by (at, slot).
 * - The creator is not a "buyer": `uniqueBuyers` and `topBuyerShare` leave the creator's wallet out. Almost
 *   every launch has a dev buy, so counting it would add a constant to one and make the other read
 *   "concentrated" for any mint with few buyers; the creator's behaviour has its own field (`creatorSold`)
 *   and the rug heuristics.
 * - `topBuyerShare` is over net holdings: per wallet, tokens bought minus tokens sold (never below 0); the
 *   largest wallet's share of the sum. 0 when no other wallet holds any.
 */
export type MintFeatures = {
  /** Virtual SOL reserve now, in SOL. */
  vSolSol: number;
  /** vSol now minus vSol at creation, in SOL. */
  vSolGrowthSol: number;
  /** log1p(number of trades). */
  logTrades: number;
  /** log1p(number of distinct non-creator buyers). */
  logUniqueBuyers: number;
  topBuyerShare: number;
  /** Price now ÷ price at creation. */
  currentMult: number;
  buyCount: number;
  sellCount: number;
  uniqueBuyers: number;
  creatorSold: boolean;
  /**
   * The knn-v2 features (launch-features.ts), logged beside these in the same snapshot so every new corpus row can
   * train both families; absent on rows logged before knn-v2 existed.
   */
  launch?: LaunchFeatures;
};

/** The six published k-NN features, in vector order. */
export const FEATURE_VECTOR_KEYS = ['vSolSol', 'vSolGrowthSol', 'logTrades', 'logUniqueBuyers', 'topBuyerShare', 'currentMult'] as const;

export type FeatureVectorKey = (typeof FEATURE_VECTOR_KEYS)[number];

export const toVector = (f: MintFeatures): number[] => FEATURE_VECTOR_KEYS.map((k) => f[k]);

export function computeFeatures(create: CreateEvent, tradesSoFar: readonly TradeEvent[], ageS: number): MintFeatures {
  if (!(ageS >= 0)) throw new RangeError(`ageS must be >= 0, got ${ageS}`);
  if (!(create.vSolLamports > 0 && create.vTokensRaw > 0)) throw new RangeError(`mint ${create.mint}: create event without reserves`);
  const cutoff = create.at.getTime() + ageS * 1000;
  const trades: TradeEvent[] = [];
  for (const t of tradesSoFar) {
    // A trade of another mint here is a caller bug that would silently corrupt the score: fail loudly.
    if (t.mint !== create.mint) throw new RangeError(`trade ${t.signature} is for ${t.mint}, not ${create.mint}`);
    if (t.at.getTime() <= cutoff) trades.push(t);
  }
  trades.sort((a, b) => a.at.getTime() - b.at.getTime() || (a.slot ?? 0) - (b.slot ?? 0));

  const net = new Map<string, number>();
  let buyCount = 0;
  let creatorSold = false;
  for (const t of trades) {
    if (t.isBuy) buyCount++;
    if (t.trader === create.creator) {
      if (!t.isBuy) creatorSold = true;
      continue;
    }
    if (t.isBuy || net.has(t.trader)) net.set(t.trader, (net.get(t.trader) ?? 0) + (t.isBuy ? t.tokensRaw : -t.tokensRaw));
  }
  const uniqueBuyers = countBuyers(trades, create.creator);
  let held = 0;
  let top = 0;
  for (const v of net.values()) {
    const h = Math.max(0, v);
    held += h;
    top = Math.max(top, h);
  }

  const last = trades[trades.length - 1];
  const vSol = last ? last.vSolLamports : create.vSolLamports;
  const vTokens = last ? last.vTokensRaw : create.vTokensRaw;
  if (!(vSol > 0 && vTokens > 0)) throw new RangeError(`trade ${last?.signature} carries no reserves`);
  return {
    vSolSol: vSol / 1e9,
    vSolGrowthSol: (vSol - create.vSolLamports) / 1e9,
    logTrades: Math.log1p(trades.length),
    logUniqueBuyers: Math.log1p(uniqueBuyers),
    topBuyerShare: held > 0 ? top / held : 0,
    currentMult: priceSol(vSol, vTokens) / priceSol(create.vSolLamports, create.vTokensRaw),
    buyCount,
    sellCount: trades.length - buyCount,
    uniqueBuyers,
    creatorSold,
  };
}

function countBuyers(trades: readonly TradeEvent[], creator: string): number {
  const buyers = new Set<string>();
  for (const t of trades) if (t.isBuy && t.trader !== creator) buyers.add(t.trader);
  return buyers.size;
}
