import type { ParsedInstruction, ParsedTransactionWithMeta, PartiallyDecodedInstruction } from '@solana/web3.js';
import { unitsToDecimalString } from '../../domain/billing/decimal-units';
import { createSolanaConnection, rpcCall } from './solana-connection';

/** SPL Token and Token-2022: both decode `burn` / `burnChecked` the same way under `jsonParsed`. */
const TOKEN_PROGRAMS = new Set(['spl-token', 'spl-token-2022']);

export type BurnOnChain = { signature: string; slot: number; blockTime: Date | null; mint: string; amountRaw: bigint; decimals: number; amountTokens: number };

type Info = { mint?: string; amount?: string; tokenAmount?: { amount: string; decimals: number } };

/**
 * The tokens of `mint` a successful transaction burned, from the token program's own decoding (top level and inner
 * instructions). `burn` carries a raw amount only; its decimals come from the transaction's token balances.
 * Null when the transaction failed or burned none of that mint.
 */
export function readBurn(signature: string, tx: ParsedTransactionWithMeta, mint: string): BurnOnChain | null {
  if (!tx.meta || tx.meta.err !== null) return null;
  const all: (ParsedInstruction | PartiallyDecodedInstruction)[] = [...tx.transaction.message.instructions];
  for (const inner of tx.meta.innerInstructions ?? []) all.push(...inner.instructions);
  let raw = 0n;
  let decimals = [...(tx.meta.preTokenBalances ?? []), ...(tx.meta.postTokenBalances ?? [])].find((b) => b.mint === mint)?.uiTokenAmount.decimals;
  for (const ix of all) {
    if (!('parsed' in ix) || !TOKEN_PROGRAMS.has(ix.program)) continue;
    const p = ix.parsed as { type?: string; info?: Info };
    if ((p.type !== 'burn' && p.type !== 'burnChecked') || p.info?.mint !== mint) continue;
    if (p.info.tokenAmount) {
      raw += BigInt(p.info.tokenAmount.amount);
      decimals = p.info.tokenAmount.decimals;
    } else if (p.info.amount !== undefined) raw += BigInt(p.info.amount);
  }
  if (raw === 0n || decimals === undefined) return null;
  const amountTokens = Number(unitsToDecimalString(raw, decimals));
  return { signature, slot: tx.slot, blockTime: tx.blockTime ? new Date(tx.blockTime * 1000) : null, mint, amountRaw: raw, decimals, amountTokens };
}

/** `found: false`: the node does not (yet) serve the transaction at `confirmed`; otherwise what it burned, if anything. */
export type BurnLookup = { found: false } | { found: true; burn: BurnOnChain | null };
export type BurnReader = { burn(signature: string, mint: string): Promise<BurnLookup> };

export function createBurnReader(o: { url: string; timeoutMs?: number }): BurnReader {
  const connection = createSolanaConnection(o.url, o.timeoutMs);
  return {
    burn: (signature, mint) =>
      rpcCall('getTransaction', async () => {
        const tx = await connection.getParsedTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
        return tx ? { found: true, burn: readBurn(signature, tx, mint) } : { found: false };
      }),
  };
}
