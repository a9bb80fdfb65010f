import { z } from 'zod';
import type { DriftTrade } from '../../domain/perps/drift-trade';

/**
 * The columns of Drift's v2 `tradeRecords` CSV files, as its historical-data glossary lists them (the shared
 * columns ts, txSig, slot, marketType, marketIndex, oraclePrice, programId, and the trade columns). Files carry
 * a header line; its order is not relied on. Columns the observatory reads are required: a file without one is
 * refused whole. The rest are accepted when present, so a column Drift added or dropped over the years costs
 * nothing.
 */
export const DRIFT_TRADE_COLUMNS = [
  'fillerReward',
  'baseAssetAmountFilled',
  'quoteAssetAmountFilled',
  'takerFee',
  'makerRebate',
  'referrerReward',
  'quoteAssetAmountSurplus',
  'takerOrderBaseAssetAmount',
  'takerOrderCumulativeBaseAssetAmountFilled',
  'takerOrderCumulativeQuoteAssetAmountFilled',
  'makerOrderBaseAssetAmount',
  'makerOrderCumulativeBaseAssetAmountFilled',
  'makerOrderCumulativeQuoteAssetAmountFilled',
  'oraclePrice',
  'makerFee',
  'txSig',
  'slot',
  'ts',
  'action',
  'actionExplanation',
  'marketIndex',
  'marketType',
  'filler',
  'fillRecordId',
  'taker',
  'takerOrderId',
  'takerOrderDirection',
  'maker',
  'makerOrderId',
  'makerOrderDirection',
  'spotFulfillmentMethodFee',
  'programId',
] as const;

export const DRIFT_REQUIRED_COLUMNS = [
  'ts',
  'txSig',
  'slot',
  'fillRecordId',
  'marketIndex',
  'marketType',
  'action',
  'baseAssetAmountFilled',
  'quoteAssetAmountFilled',
  'oraclePrice',
  'taker',
  'takerOrderDirection',
  'maker',
  'makerOrderDirection',
  'takerFee',
  'makerFee',
] as const;

// Python- and pandas-written numbers: "100.0", "-0.005", "1e-06".
const number = z
  .string()
  .regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/, 'a decimal number')
  .transform(Number);
const nonNegative = number.refine((n) => n >= 0, 'not negative');
const count = z.string().regex(/^\d+$/, 'a whole number').transform(Number);
const pubkey = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'a base58 public key');
const optionalPubkey = z.union([z.literal('').transform(() => null), pubkey]);
const direction = z.union([z.literal('').transform(() => null), z.enum(['long', 'short'])]);
const feeOrZero = z.union([z.literal('').transform(() => 0), number]);

export const driftTradeRow = z
  .object({
    ts: count,
    txSig: z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/, 'a base58 transaction signature'),
    slot: count,
    fillRecordId: count,
    marketIndex: count,
    marketType: z.enum(['perp', 'spot']),
    action: z.string().min(1),
    actionExplanation: z.string().optional(),
    baseAssetAmountFilled: nonNegative,
    quoteAssetAmountFilled: nonNegative,
    oraclePrice: number.refine((n) => n > 0, 'positive'),
    taker: optionalPubkey,
    takerOrderDirection: direction,
    maker: optionalPubkey,
    makerOrderDirection: direction,
    takerFee: feeOrZero,
    makerFee: feeOrZero,
  })
  .transform((r): DriftTrade => ({
    at: r.ts * 1000,
    txSig: r.txSig,
    slot: r.slot,
    fillRecordId: r.fillRecordId,
    marketIndex: r.marketIndex,
    marketType: r.marketType,
    action: r.action,
    actionExplanation: r.actionExplanation ?? '',
    baseAmount: r.baseAssetAmountFilled,
    quoteAmountUsd: r.quoteAssetAmountFilled,
    oraclePrice: r.oraclePrice,
    taker: r.taker,
    takerDirection: r.takerOrderDirection,
    maker: r.maker,
    makerDirection: r.makerOrderDirection,
    takerFeeUsd: r.takerFee,
    makerFeeUsd: r.makerFee,
  }));
