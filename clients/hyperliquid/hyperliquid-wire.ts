import { z } from 'zod';

/**
 * The wire shapes of Hyperliquid's public `POST /info` answers, checked at the boundary. Hyperliquid sends
 * prices, sizes and USD amounts as decimal strings ("26951.0", "-0.00785"); they become numbers here, and a
 * string that is not a plain decimal fails the parse rather than turning into NaN downstream. Fields Hyperliquid
 * adds later are ignored; a field we read that goes missing or changes type fails loudly (the anchor service lost
 * a day to a value that arrived as an object and was swallowed).
 */
export const decimal = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/, 'a decimal string')
  .transform(Number);
const decimalOrNull = decimal.nullable();
const millis = z.number().int().nonnegative();

export const universeAsset = z.object({
  name: z.string().min(1),
  szDecimals: z.number().int().nonnegative(),
  maxLeverage: z.number().positive(),
  onlyIsolated: z.boolean().optional(),
  isDelisted: z.boolean().optional(),
});
export const metaWire = z.object({ universe: z.array(universeAsset) });

export const assetCtxWire = z.object({
  funding: decimal,
  openInterest: decimal,
  prevDayPx: decimal,
  dayNtlVlm: decimal,
  premium: decimalOrNull.optional(),
  oraclePx: decimal,
  markPx: decimal,
  midPx: decimalOrNull.optional(),
  impactPxs: z.array(decimal).nullable().optional(),
  dayBaseVlm: decimal.optional(),
});
export const metaAndAssetCtxsWire = z
  .tuple([metaWire, z.array(assetCtxWire)])
  .refine(([meta, ctxs]) => meta.universe.length === ctxs.length, 'one asset context per universe entry');

export const leverageWire = z.object({
  type: z.enum(['cross', 'isolated']),
  value: z.number().positive(),
  rawUsd: decimal.optional(),
});
export const positionWire = z.object({
  coin: z.string().min(1),
  szi: decimal,
  entryPx: decimalOrNull,
  positionValue: decimal,
  unrealizedPnl: decimal,
  returnOnEquity: decimal,
  leverage: leverageWire,
  liquidationPx: decimalOrNull,
  marginUsed: decimal,
  maxLeverage: z.number().optional(),
  cumFunding: z.object({ allTime: decimal, sinceOpen: decimal, sinceChange: decimal }).optional(),
});
const marginSummaryWire = z.object({
  accountValue: decimal,
  totalNtlPos: decimal,
  totalRawUsd: decimal,
  totalMarginUsed: decimal,
});
export const clearinghouseStateWire = z.object({
  assetPositions: z.array(z.object({ position: positionWire, type: z.string() })),
  marginSummary: marginSummaryWire,
  crossMarginSummary: marginSummaryWire,
  withdrawable: decimal,
  time: millis.optional(),
});

export const fillWire = z.object({
  coin: z.string().min(1),
  px: decimal,
  sz: decimal,
  side: z.enum(['A', 'B']),
  time: millis,
  startPosition: decimal,
  dir: z.string(),
  closedPnl: decimal,
  hash: z.string(),
  oid: z.number().int(),
  crossed: z.boolean(),
  fee: decimal,
  tid: z.number().int().optional(),
  feeToken: z.string().optional(),
  liquidation: z.object({ liquidatedUser: z.string().optional(), markPx: decimal, method: z.string() }).nullable().optional(),
});
export const fillsWire = z.array(fillWire);

export const allMidsWire = z.record(z.string(), decimal);

export const candleWire = z.object({
  t: millis,
  T: millis,
  s: z.string(),
  i: z.string(),
  o: decimal,
  c: decimal,
  h: decimal,
  l: decimal,
  v: decimal,
  n: z.number().int().nonnegative(),
});
export const candlesWire = z.array(candleWire);

export const fundingWire = z.object({ coin: z.string(), fundingRate: decimal, premium: decimal, time: millis });
export const fundingHistoryWire = z.array(fundingWire);

const historyPoint = z.tuple([millis, decimal]);
export const portfolioPeriodWire = z.object({
  accountValueHistory: z.array(historyPoint),
  pnlHistory: z.array(historyPoint),
  vlm: decimal,
});
export const portfolioWire = z.array(z.tuple([z.string(), portfolioPeriodWire]));

/** Websocket frames: `{ channel, data }`. */
export const wsTradeWire = z.object({
  coin: z.string().min(1),
  side: z.enum(['A', 'B']),
  px: decimal,
  sz: decimal,
  hash: z.string(),
  time: millis,
  tid: z.number().int(),
  users: z.tuple([z.string(), z.string()]),
});
export const wsFrameWire = z.discriminatedUnion('channel', [
  z.object({ channel: z.literal('trades'), data: z.array(wsTradeWire) }),
  z.object({ channel: z.literal('allMids'), data: z.object({ mids: allMidsWire }) }),
  z.object({ channel: z.literal('subscriptionResponse'), data: z.unknown() }),
  z.object({ channel: z.literal('pong') }),
  z.object({ channel: z.literal('error'), data: z.unknown() }),
]);

export type MetaWire = z.infer<typeof metaWire>;
export type AssetCtxWire = z.infer<typeof assetCtxWire>;
export type PositionWire = z.infer<typeof positionWire>;
export type ClearinghouseStateWire = z.infer<typeof clearinghouseStateWire>;
export type FillWire = z.infer<typeof fillWire>;
export type CandleWire = z.infer<typeof candleWire>;
export type FundingWire = z.infer<typeof fundingWire>;
export type PortfolioWire = z.infer<typeof portfolioWire>;
export type WsTradeWire = z.infer<typeof wsTradeWire>;
export type WsFrameWire = z.infer<typeof wsFrameWire>;
