import { CURVE, type CreateEvent, type TradeEvent } from '../launch/launch-events';
import { topBuyerWallets } from '../launch/mint-signals';
import { MintTape } from '../launch/mint-tape';

/**
 * The knn-v2 view of a mint at a fixed age: point-in-time features, each defined here once and computed by this
 * function for a live mint (the scoring activity) and for every corpus row (the backtest, the seeded history and
 * the chain backfill, through launch-histories.ts). docs/model.md says why each is there and where it comes from.
 *
 * Point in time: only trades with `at <= created + ageS` count (as mint-features.ts), and everything that is not on
 * the mint's own tape comes in through `LaunchContext`, whose caller answers as of that moment (the wallet index
 * as it stood at the cutoff, the creator's record as of the launch, freshness as of the creation). Nothing here
 * reads a clock.
 *
 * The curve's position is ONE feature (`vSolSol`): with the initial reserves fixed, vSol growth and the price
 * multiple are functions of vSol, and counting them apart weighs the curve three times in any distance.
 */
export type LaunchFeatures = {
  /** Virtual SOL now, in SOL: the curve's position. */
  vSolSol: number;
  /** log1p(swaps so far): with vSol, how many swaps it took to get there (liquidity velocity). */
  logSwaps: number;
  /** Net virtual SOL gained per swap, in SOL. */
  solPerSwap: number;
  /** Age of the last swap ÷ the age: how late the current vSol was reached (0 without swaps). */
  reachFrac: number;
  /** (buys in the last 10 s − buys in the 10 s before) ÷ (their sum + 1). */
  accelBuys: number;
  /** Net virtual SOL added in the last 10 s minus in the 10 s before, in SOL. */
  accelSolSol: number;
  /** log1p(distinct non-creator buyers). */
  logBuyers: number;
  /** Share of non-creator traders with two or more swaps. */
  repeatShare: number;
  /** Tokens the first 10 non-creator buyers hold now ÷ total supply. */
  first10Share: number;
  /** The same for the first 20. */
  first20Share: number;
  /** Tokens bought in the creation slot by non-creator wallets ÷ total supply (0 when the feed carries no slots). */
  bundleShare: number;
  bundleCount: number;
  /** Non-creator wallets whose first buy came within SNIPE_WINDOW_S of the creation. */
  sniperCount: number;
  /** Tokens those snipers sold ÷ tokens they bought (0 without snipers). */
  sniperSoldShare: number;
  /** SOL the creator put into buys, in SOL. */
  devBuySol: number;
  /** 1 when the creator has sold any tokens, else 0. */
  devSold: number;
  /** Share of non-creator buyers that had never traded on the launchpad before the creation (0 without buyers). */
  freshShare: number;
  /** Smart wallets among the top buyers, by the wallet index as it stood at the cutoff. */
  smartCount: number;
  /** SOL those smart top buyers hold in, in SOL. */
  smartSolIn: number;
  /** log1p(the creator's resolved launches before this one). */
  creatorLogLaunches: number;
  /** (graduates + 0.5) ÷ (launches + 1) over the creator's resolved launches: Jeffreys-smoothed, no outside prior. */
  creatorGradRate: number;
  /** (rugs + 0.5) ÷ (launches + 1), the same way. */
  creatorRugRate: number;
  /** SOL out in sells ÷ SOL in from buys (0 without buys). */
  sellSolShare: number;
};

/** What the stream knew outside the mint's own tape, as of the moment the features are taken. */
export type LaunchContext = {
  /** True when the wallet had never traded on the launchpad before the mint's creation. Unknown reads false. */
  isFresh(wallet: string): boolean;
  /** True when the wallet index, as it stood at the cutoff, counts the wallet as smart. */
  isSmart(wallet: string): boolean;
  /** The creator's launches resolved before this mint's creation. */
  creator: { launches: number; graduates: number; rugs: number };
};

export const LAUNCH_FEATURE_KEYS = [
  'vSolSol',
  'logSwaps',
  'solPerSwap',
  'reachFrac',
  'accelBuys',
  'accelSolSol',
  'logBuyers',
  'repeatShare',
  'first10Share',
  'first20Share',
  'bundleShare',
  'bundleCount',
  'sniperCount',
  'sniperSoldShare',
  'devBuySol',
  'devSold',
  'freshShare',
  'smartCount',
  'smartSolIn',
  'creatorLogLaunches',
  'creatorGradRate',
  'creatorRugRate',
  'sellSolShare',
] as const satisfies readonly (keyof LaunchFeatures)[];

export type LaunchFeatureKey = (typeof LAUNCH_FEATURE_KEYS)[number];

export const launchVector = (f: LaunchFeatures): number[] => LAUNCH_FEATURE_KEYS.map((k) => f[k]);

/** The window of "recent" acceleration. */
export const ACCEL_WINDOW_S = 10;

export const NO_CONTEXT: LaunchContext = { isFresh: () => false, isSmart: () => false, creator: { launches: 0, graduates: 0, rugs: 0 } };

export function computeLaunchFeatures(create: CreateEvent, tradesAnyOrder: readonly TradeEvent[], ageS: number, ctx: LaunchContext): LaunchFeatures {
  if (!(ageS >= 0)) throw new RangeError(`ageS must be >= 0, got ${ageS}`);
  const createdMs = create.at.getTime();
  const cutoff = createdMs + ageS * 1000;
  const trades: TradeEvent[] = [];
  for (const t of tradesAnyOrder) {
    if (t.mint !== create.mint) throw new RangeError(`trade ${t.signature} is for ${t.mint}, not ${create.mint}`);
    if (t.at.getTime() <= cutoff) trades.push(t);
  }
  trades.sort((a, b) => a.at.getTime() - b.at.getTime() || (a.slot ?? 0) - (b.slot ?? 0));
  const tape = new MintTape(create);
  const firstBuyers: string[] = [];
  let recentBuys = 0;
  let priorBuys = 0;
  let recentSol = 0;
  let priorSol = 0;
  let prevVSol = create.vSolLamports;
  let solIn = 0;
  let solOut = 0;
  for (const t of trades) {
    tape.apply(t);
    if (t.isBuy && t.trader !== create.creator && !firstBuyers.includes(t.trader) && firstBuyers.length < 20) firstBuyers.push(t.trader);
    const back = cutoff - t.at.getTime();
    const delta = t.vSolLamports - prevVSol;
    prevVSol = t.vSolLamports;
    if (back < ACCEL_WINDOW_S * 1000) {
      recentBuys += t.isBuy ? 1 : 0;
      recentSol += delta;
    } else if (back < 2 * ACCEL_WINDOW_S * 1000) {
      priorBuys += t.isBuy ? 1 : 0;
      priorSol += delta;
    }
    if (t.isBuy) solIn += t.solLamports;
    else solOut += t.solLamports;
  }

  let buyers = 0;
  let traders = 0;
  let repeaters = 0;
  let fresh = 0;
  for (const [wallet, w] of tape.wallets) {
    if (wallet === create.creator) continue;
    traders++;
    if (w.trades >= 2) repeaters++;
    if (w.bought > 0) {
      buyers++;
      if (ctx.isFresh(wallet)) fresh++;
    }
  }
  const heldBy = (ws: readonly string[]) => ws.reduce((s, w) => s + (tape.wallets.get(w)?.tokens ?? 0), 0) / CURVE.totalSupplyRaw;
  const snipers = tape.sniperWallets();
  let sniperBought = 0;
  let sniperSold = 0;
  for (const w of snipers) {
    const p = tape.wallets.get(w)!;
    sniperBought += p.bought;
    sniperSold += p.sold;
  }
  const smart = topBuyerWallets(tape).filter((b) => b.wallet !== create.creator && ctx.isSmart(b.wallet));
  const dev = tape.wallets.get(create.creator);
  let devBuy = 0;
  for (const t of trades) if (t.isBuy && t.trader === create.creator) devBuy += t.solLamports;
  const c = ctx.creator;
  const last = trades[trades.length - 1];
  const bundle = tape.bundle();
  return noNegativeZero({
    vSolSol: tape.vSol / 1e9,
    logSwaps: Math.log1p(trades.length),
    solPerSwap: trades.length > 0 ? (tape.vSol - create.vSolLamports) / 1e9 / trades.length : 0,
    reachFrac: last && ageS > 0 ? Math.min(1, Math.max(0, (last.at.getTime() - createdMs) / (ageS * 1000))) : 0,
    accelBuys: (recentBuys - priorBuys) / (recentBuys + priorBuys + 1),
    accelSolSol: (recentSol - priorSol) / 1e9,
    logBuyers: Math.log1p(buyers),
    repeatShare: traders > 0 ? repeaters / traders : 0,
    first10Share: heldBy(firstBuyers.slice(0, 10)),
    first20Share: heldBy(firstBuyers),
    bundleShare: Math.min(1, bundle.pct),
    bundleCount: tape.bundleWallets.size,
    sniperCount: snipers.length,
    sniperSoldShare: sniperBought > 0 ? Math.min(1, sniperSold / sniperBought) : 0,
    devBuySol: devBuy / 1e9,
    devSold: dev && dev.sold > 0 ? 1 : 0,
    freshShare: buyers > 0 ? fresh / buyers : 0,
    smartCount: smart.length,
    smartSolIn: smart.reduce((s, b) => s + b.solIn, 0),
    creatorLogLaunches: Math.log1p(c.launches),
    creatorGradRate: (c.graduates + 0.5) / (c.launches + 1),
    creatorRugRate: (c.rugs + 0.5) / (c.launches + 1),
    sellSolShare: solIn > 0 ? solOut / solIn : 0,
  });
}

/** The ledger's canonical JSON refuses -0 (a product like 0 × −x yields it), so the snapshot never carries one. */
function noNegativeZero(f: LaunchFeatures): LaunchFeatures {
  for (const key of LAUNCH_FEATURE_KEYS) if (Object.is(f[key], -0)) f[key] = 0;
  return f;
}
