/**
 * The perps observatory's plain domain values. Times are epoch milliseconds and amounts plain numbers (USD for
 * values, base units for sizes), so every value crosses a Temporal workflow boundary as JSON unchanged.
 */
export type PerpsSide = 'long' | 'short';

/** One perpetual market's context at a moment (Hyperliquid `metaAndAssetCtxs`, or the simulator). */
export type MarketContext = {
  market: string;
  markPx: number;
  oraclePx: number;
  midPx: number | null;
  /** Hyperliquid pays funding every hour; this is the current hourly rate (0.0000125 = 0.00125 %/h). */
  fundingRateHourly: number;
  openInterestBase: number;
  openInterestUsd: number;
  volume24hUsd: number;
  prevDayPx: number;
  maxLeverage: number;
};

export type PositionSnapshot = {
  market: string;
  side: PerpsSide;
  /** Absolute size in base units (Hyperliquid's `szi` is signed: negative is short). */
  size: number;
  entryPx: number;
  positionValueUsd: number;
  unrealizedPnlUsd: number;
  leverage: number;
  leverageType: 'cross' | 'isolated';
  liquidationPx: number | null;
  marginUsedUsd: number;
};

/** A wallet's clearinghouse state at `at`. */
export type WalletSnapshot = {
  wallet: string;
  at: number;
  accountValueUsd: number;
  positions: PositionSnapshot[];
};

/** One fill of a wallet, in Hyperliquid's terms (`dir` is "Open Long", "Close Short", "Long > Short", …). */
export type WalletFill = {
  market: string;
  px: number;
  size: number;
  /** B = bid (a buy), A = ask (a sell). */
  side: 'buy' | 'sell';
  time: number;
  /** Signed position before this fill. */
  startPosition: number;
  dir: string;
  closedPnlUsd: number;
  feeUsd: number;
  hash: string;
  /** Hyperliquid's trade id, when the answer carries it: with the wallet, the fill's natural key. */
  tid?: number | null;
  liquidation: boolean;
};

export const PERPS_HORIZONS = ['5m', '1h', '24h'] as const;
export type PerpsHorizon = (typeof PERPS_HORIZONS)[number];
export const HORIZON_MS: Record<PerpsHorizon, number> = { '5m': 5 * 60_000, '1h': 60 * 60_000, '24h': 24 * 60 * 60_000 };
