import type { BurnReader } from '../../clients/solana/burn-transaction';
import type { BurnKind, BurnStore } from '../../db/billing/burn-store';

/**
 * Records an executed burn only as the chain shows it: the transaction must have succeeded at `confirmed`
 * commitment and burned the holder token; amount, slot and time are read from it, never typed in by hand.
 */
export async function recordVerifiedBurn(
  d: { reader: BurnReader; burnStore: BurnStore; tokenMint: string; now: () => Date },
  i: { signature: string; kind: BurnKind; settles: number[] },
): Promise<{ id: number; inserted: boolean; amountTokens: number }> {
  const burn = await d.reader.burn(i.signature, d.tokenMint);
  if (!burn) throw new Error(`transaction ${i.signature} is unknown, failed, or burned no ${d.tokenMint}`);
  if (!burn.blockTime) throw new Error(`transaction ${i.signature} has no block time yet; record it once the node reports one`);
  const r = await d.burnStore.recordExecuted({
    kind: i.kind,
    signature: i.signature,
    slot: burn.slot,
    tokenMint: d.tokenMint,
    amountTokens: burn.amountTokens,
    executedAt: burn.blockTime,
    settles: i.settles,
    recordedAt: d.now(),
  });
  return { ...r, amountTokens: burn.amountTokens };
}
