import type { BurnReader } from '../../clients/solana/burn-transaction';
import type { BurnKind, BurnStore } from '../../db/billing/burn-store';

/** The transaction can never be recorded as a burn of the holder token (it failed, or burned none of it). */
export class BurnNotRecordable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BurnNotRecordable';
  }
}

/**
 * Records an executed burn only as the chain shows it: the transaction must have succeeded at `confirmed`
 * commitment and burned the holder token; amount, slot and time are read from it, never typed in by hand.
 * A transaction the node does not serve yet, or serves without a block time, is a plain (retryable) error: a
 * burn just sent shows up within seconds.
 */
export async function recordVerifiedBurn(
  d: { reader: BurnReader; burnStore: BurnStore; tokenMint: string; now: () => Date },
  i: { signature: string; kind: BurnKind; settles: number[] },
): Promise<{ id: number; inserted: boolean; amountTokens: number }> {
  const lookup = await d.reader.burn(i.signature, d.tokenMint);
  if (!lookup.found) throw new Error(`transaction ${i.signature} is not known to the node at confirmed commitment yet`);
  const burn = lookup.burn;
  if (!burn) throw new BurnNotRecordable(`transaction ${i.signature} failed, or burned no ${d.tokenMint}`);
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
