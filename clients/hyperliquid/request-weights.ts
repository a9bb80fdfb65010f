/**
 * Request weights of Hyperliquid's `POST /info`, as its "Rate limits and user limits" page documents them:
 * REST requests share 1200 weight per minute per IP; `l2Book`, `allMids`, `clearinghouseState`, `orderStatus`,
 * `spotClearinghouseState` and `exchangeStatus` weigh 2, `userRole` 60, every other documented info request 20.
 * Some requests add weight for what they return: one more per 20 items for `userFills`, `userFillsByTime`,
 * `fundingHistory`, `userFunding`, `recentTrades`, `historicalOrders` and a few others; one more per 60 items for
 * `candleSnapshot`. The extra is known only once the answer is in, so the budget charges the base weight before
 * sending and the extra after (see WeightBudget.charge).
 */

const LIGHT = new Set(['l2Book', 'allMids', 'clearinghouseState', 'orderStatus', 'spotClearinghouseState', 'exchangeStatus']);
const PER_20_ITEMS = new Set([
  'recentTrades',
  'historicalOrders',
  'userFills',
  'userFillsByTime',
  'fundingHistory',
  'userFunding',
  'nonUserFundingUpdates',
  'twapHistory',
  'userTwapSliceFills',
  'userTwapSliceFillsByTime',
  'delegatorHistory',
  'delegatorRewards',
  'validatorStats',
]);

export function baseWeight(type: string): number {
  if (LIGHT.has(type)) return 2;
  if (type === 'userRole') return 60;
  return 20;
}

/** Weight added by an answer of `items` elements. */
export function itemsWeight(type: string, items: number): number {
  if (PER_20_ITEMS.has(type)) return Math.floor(items / 20);
  if (type === 'candleSnapshot') return Math.floor(items / 60);
  return 0;
}
