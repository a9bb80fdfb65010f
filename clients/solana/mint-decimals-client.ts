import { PublicKey } from '@solana/web3.js';
import { createSolanaConnection, rpcCall } from './solana-connection';

/**
 * The holder mint's decimals, read from the chain (`getTokenSupply`, which SPL Token and Token-2022 mints both
 * answer) rather than configured: a token price is computed in raw units, and a wrong decimals setting would be off
 * by powers of ten with nothing to catch it. A mint's decimals are fixed when it is created, so the first answer is
 * kept for the life of the process; a failed read is not kept, the next intent asks again.
 */
export type MintDecimalsReader = { decimals(): Promise<number> };

export function createMintDecimalsReader(o: { url: string; mint: string; timeoutMs?: number }): MintDecimalsReader {
  const connection = createSolanaConnection(o.url, o.timeoutMs ?? 5000);
  let known: number | null = null;
  return {
    async decimals() {
      if (known !== null) return known;
      const supply = await rpcCall('getTokenSupply', () => connection.getTokenSupply(new PublicKey(o.mint), 'confirmed'));
      const d = supply.value.decimals;
      if (!Number.isInteger(d) || d < 0 || d > 255) throw new Error(`getTokenSupply answered decimals ${d} for ${o.mint}`);
      known = d;
      return d;
    },
  };
}
