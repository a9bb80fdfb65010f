/**
 * Which wallets the trades stream adds to the watched set (discovery-v1): the taker of a trade whose notional is
 * at least the configured minimum. The taker chose to trade that size now; the maker is usually a market maker
 * quoting both sides all day, whose fills say nothing about a view. Hyperliquid's `side` is the aggressor's
 * (B: the buyer took the offer) and `users` is [buyer, seller].
 */
export const DISCOVERY_RULE_VERSION = 'discovery-v1';

export type StreamTrade = { side: 'buy' | 'sell'; buyer: string; seller: string; notionalUsd: number };

export function discoveredTaker(t: StreamTrade, minNotionalUsd: number): string | null {
  if (!(t.notionalUsd >= minNotionalUsd)) return null;
  return t.side === 'buy' ? t.buyer : t.seller;
}
