import { PublicKey } from '@solana/web3.js';
import { createSolanaConnection, rpcCall } from './solana-connection';
import type { TreasuryTransaction } from '../../domain/billing/treasury-transaction';
import { readTreasuryTransaction } from './treasury-transaction';

/**
 * The treasury's view of the chain over Solana JSON-RPC, with @solana/web3.js pointed at a configurable URL.
 * Everything is read at `confirmed` commitment: a transaction a supermajority voted on, the level the product
 * promises to activate at.
 */
export type TreasurySignature = { signature: string; slot: number; blockTime: Date | null; failed: boolean };

export type TreasuryRpc = {
  /** Signatures of transactions touching `address` (the treasury or one of its token accounts): newest first, up to `limit`, older than `before` when given. */
  recentSignatures(o: { address: string; before?: string; limit: number }): Promise<TreasurySignature[]>;
  /** Null while the node does not return the transaction (not yet, or pruned). */
  transaction(signature: string): Promise<TreasuryTransaction | null>;
};

/** `holderMint`: the token whose transfers to the treasury are measured (null: SOL only). */
export function createTreasuryRpc(o: { url: string; treasury: string; holderMint?: string | null; timeoutMs?: number }): TreasuryRpc {
  const connection = createSolanaConnection(o.url, o.timeoutMs);
  return {
    recentSignatures: ({ address, before, limit }) =>
      rpcCall('getSignaturesForAddress', async () => {
        const sigs = await connection.getSignaturesForAddress(new PublicKey(address), { limit, ...(before ? { before } : {}) }, 'confirmed');
        return sigs.map((s) => ({
          signature: s.signature,
          slot: s.slot,
          blockTime: s.blockTime ? new Date(s.blockTime * 1000) : null,
          failed: s.err !== null,
        }));
      }),
    transaction: (signature) =>
      rpcCall('getTransaction', async () => {
        const tx = await connection.getParsedTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
        return tx ? readTreasuryTransaction(signature, tx, o.treasury, o.holderMint ?? null) : null;
      }),
  };
}
