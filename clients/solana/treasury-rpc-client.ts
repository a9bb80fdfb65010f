import { Connection, PublicKey, SolanaJSONRPCError } from '@solana/web3.js';
import { readTreasuryTransaction, type TreasuryTransaction } from './treasury-transaction';

/**
 * The treasury's view of the chain over Solana JSON-RPC, with @solana/web3.js pointed at a configurable URL.
 * Everything is read at `confirmed` commitment: a transaction a supermajority voted on, the level the product
 * promises to activate at. The library's own retry on HTTP 429 is off so Temporal's retry policy (with its
 * backoff and visible attempts) is the only one.
 */
export type TreasurySignature = { signature: string; slot: number; blockTime: Date | null; failed: boolean };

export type TreasuryRpc = {
  /** Newest first, up to `limit`, older than `before` when given. */
  recentSignatures(o: { before?: string; limit: number }): Promise<TreasurySignature[]>;
  /** Null while the node does not return the transaction (not yet, or pruned). */
  transaction(signature: string): Promise<TreasuryTransaction | null>;
};

export class TreasuryRpcError extends Error {
  constructor(message: string, readonly code?: number) {
    super(message);
    this.name = 'TreasuryRpcError';
  }
}

export function createTreasuryRpc(o: { url: string; treasury: string; timeoutMs?: number }): TreasuryRpc {
  const timeoutMs = o.timeoutMs ?? 10_000;
  const treasury = new PublicKey(o.treasury);
  const connection = new Connection(o.url, {
    commitment: 'confirmed',
    disableRetryOnRateLimit: true,
    fetch: async (input, init) => {
      try {
        return await fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      } catch (e) {
        // web3.js forwards only errors that are `instanceof Error` in its own realm and otherwise never settles
        // the request; a fetch failure raised by another realm (a test sandbox) would hang the call.
        throw new Error(`fetch failed: ${(e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message}`);
      }
    },
  });

  const wrap = async <T>(what: string, f: () => Promise<T>): Promise<T> => {
    try {
      return await f();
    } catch (e) {
      const code = e instanceof SolanaJSONRPCError && typeof e.code === 'number' ? e.code : undefined;
      throw new TreasuryRpcError(`${what}: ${(e as Error).message}`, code);
    }
  };

  return {
    recentSignatures: ({ before, limit }) =>
      wrap('getSignaturesForAddress', async () => {
        const sigs = await connection.getSignaturesForAddress(treasury, { limit, ...(before ? { before } : {}) }, 'confirmed');
        return sigs.map((s) => ({ signature: s.signature, slot: s.slot, blockTime: s.blockTime ? new Date(s.blockTime * 1000) : null, failed: s.err !== null }));
      }),
    transaction: (signature) =>
      wrap('getTransaction', async () => {
        const tx = await connection.getParsedTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
        return tx ? readTreasuryTransaction(signature, tx, o.treasury) : null;
      }),
  };
}
