import { Connection, PublicKey } from '@solana/web3.js';

/**
 * Reads a wallet's holder-token balance over Solana JSON-RPC with @solana/web3.js: `getTokenAccountsByOwner`
 * (filtered by the holder mint) then `getTokenAccountBalance` of each account, summed in raw units so no
 * precision is lost, at `confirmed` commitment. A wallet without token accounts holds 0.
 */
export type HolderBalanceClient = { balanceOf(wallet: string): Promise<number> };

export class HolderBalanceUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HolderBalanceUnavailable';
  }
}

export function createHolderBalanceClient(o: { rpcUrl: string; mint: string | undefined; timeoutMs?: number }): HolderBalanceClient {
  const timeoutMs = o.timeoutMs ?? 8000;
  // web3.js's own retry on 429 would hide rate limits from the callers' retry policies.
  const connection = new Connection(o.rpcUrl, {
    commitment: 'confirmed',
    disableRetryOnRateLimit: true,
    fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }),
  });
  return {
    async balanceOf(wallet: string): Promise<number> {
      if (!o.mint) throw new HolderBalanceUnavailable('HOLDER_TOKEN_MINT is not configured');
      try {
        const owner = new PublicKey(wallet);
        const mint = new PublicKey(o.mint);
        const accounts = await connection.getTokenAccountsByOwner(owner, { mint });
        let raw = 0n;
        let decimals = 0;
        for (const a of accounts.value) {
          const b = await connection.getTokenAccountBalance(a.pubkey);
          raw += BigInt(b.value.amount);
          decimals = b.value.decimals;
        }
        return Number(raw) / 10 ** decimals;
      } catch (e) {
        throw new HolderBalanceUnavailable(`holder balance of ${wallet} could not be read: ${(e as Error).message}`);
      }
    },
  };
}
