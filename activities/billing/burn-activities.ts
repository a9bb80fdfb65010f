import type { BurnReader } from '../../clients/solana/burn-transaction';
import type { BurnStore } from '../../db/billing/burn-store';
import type { BurnRecordInput, BurnRecordResult } from '../../workflows/billing/burn-record-contract';
import { BurnNotRecordable, recordVerifiedBurn } from './burn-recorder';

export type BurnDeps = {
  burnReader: BurnReader;
  burnStore: BurnStore;
  /** Null until HOLDER_TOKEN_MINT is configured: there is no token to burn. */
  holderTokenMint: string | null;
  now: () => Date;
};

export function createBurnActivities(d: BurnDeps) {
  return {
    /**
     * Idempotent on the signature: a second run returns the first record (`inserted: false`). What can never be
     * recorded throws BurnNotRecordable or ObligationsNotOpen, which the workflow's retry policy does not retry.
     */
    async recordExecutedBurn(input: BurnRecordInput): Promise<BurnRecordResult> {
      if (!d.holderTokenMint) throw new BurnNotRecordable('HOLDER_TOKEN_MINT is not configured');
      return recordVerifiedBurn({ reader: d.burnReader, burnStore: d.burnStore, tokenMint: d.holderTokenMint, now: d.now }, input);
    },
  };
}
export type BurnActivities = ReturnType<typeof createBurnActivities>;
