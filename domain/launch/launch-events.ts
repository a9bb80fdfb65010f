/**
 * Launchpad events as every feed delivers them after decoding: the one shape ingestion, storage and the
 * simulator share. Amounts are integers in base units (lamports; token raw units with 6 decimals), which fit
 * a JS number: total supply is 1e15 raw units, below 2^53.
 */
export type EventBase = {
  /** Transaction signature (base58). */
  signature: string;
  /**
   * Ordinal of this event among the events of the same kind for the same mint inside the transaction (0 for
   * the first). Feeds disagree on global log indexes, but agree on this, so `eventKey` de-duplicates across feeds.
   */
  ordinal: number;
  slot: number | null;
  /** Block time when the feed carries one, else the time the frame was received. */
  at: Date;
  /** Which feed delivered it first (e.g. `solana-logs`, `pumpportal`, `replay`, `simulator`). */
  source: string;
  mint: string;
};

export type CreateEvent = EventBase & {
  kind: 'create';
  name: string;
  symbol: string;
  uri: string;
  bondingCurve: string;
  creator: string;
  mayhem: boolean;
  /** Curve state right after creation (before any initial buy). */
  vSolLamports: number;
  vTokensRaw: number;
};

export type TradeEvent = EventBase & {
  kind: 'trade';
  trader: string;
  isBuy: boolean;
  solLamports: number;
  tokensRaw: number;
  /** Curve state after the trade. */
  vSolLamports: number;
  vTokensRaw: number;
};

/** The curve sold out (graduated). Migration to the AMM follows. */
export type CompleteEvent = EventBase & { kind: 'complete' };

export type MigrateEvent = EventBase & { kind: 'migrate'; pool: string | null };

export type LaunchEvent = CreateEvent | TradeEvent | CompleteEvent | MigrateEvent;

export const eventKey = (e: Pick<LaunchEvent, 'signature' | 'kind' | 'mint' | 'ordinal'>) => `${e.signature}:${e.kind}:${e.mint}:${e.ordinal}`;

/** Bonding-curve constants of the launchpad (domain notes). */
export const CURVE = {
  initialVSolLamports: 30_000_000_000,
  initialVTokensRaw: 1_073_000_000_000_000,
  realTokensForSaleRaw: 793_100_000_000_000,
  totalSupplyRaw: 1_000_000_000_000_000,
  tokenDecimals: 6,
  /** vSol at which the real token reserve is sold out: about 115 SOL. */
  graduationVSolLamports: 115_000_000_000,
} as const;

/** Price in SOL per whole token. */
export const priceSol = (vSolLamports: number, vTokensRaw: number) => vSolLamports / 1e9 / (vTokensRaw / 1e6);
