import type { PerpsSide } from './perps-types';

/**
 * One row of Drift's historical trade files (exchange_a): a fill between a taker and a maker (or the AMM, when
 * `maker` is null). Amounts are in the file's decimal units: base in the market's asset, quote in USDC.
 * Drift published these daily CSVs per market and per user account until 2025-01-08.
 */
export type DriftTrade = {
  /** Epoch ms (the file's `ts` is in seconds). */
  at: number;
  txSig: string;
  slot: number;
  /** Sequential per market: with the market it is the fill's natural key. */
  fillRecordId: number;
  marketIndex: number;
  marketType: 'perp' | 'spot';
  action: string;
  actionExplanation: string;
  baseAmount: number;
  quoteAmountUsd: number;
  oraclePrice: number;
  taker: string | null;
  takerDirection: PerpsSide | null;
  maker: string | null;
  makerDirection: PerpsSide | null;
  takerFeeUsd: number;
  /** Negative when the maker earned a rebate. */
  makerFeeUsd: number;
};

/** The last day Drift published (files for later days do not exist). */
export const DRIFT_DATA_ENDS = '2025-01-08';

export function driftTradeKey(t: Pick<DriftTrade, 'marketType' | 'marketIndex' | 'fillRecordId'>): string {
  return `${t.marketType}:${t.marketIndex}:${t.fillRecordId}`;
}
