import type { WalletFill } from './perps-types';

/**
 * A fill's key within its wallet: Hyperliquid's trade id when the answer carries one; otherwise the transaction
 * hash with what tells two fills of one transaction apart (one taker order can fill against several makers).
 */
export function fillKey(f: WalletFill): string {
  return f.tid != null ? `tid:${f.tid}` : `hash:${f.hash}:${f.time}:${f.market}:${f.side}:${f.px}:${f.size}`;
}
