import { ApplicationFailure } from '@temporalio/activity';
import type { BurnReader } from '../../clients/solana/burn-transaction';
import { ObligationsNotOpen, type BurnStore } from '../../db/billing/burn-store';
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
     * recorded (BurnNotRecordable, ObligationsNotOpen) fails non-retryably under that type; anything else is retried.
     */
    async recordExecutedBurn(input: BurnRecordInput): Promise<BurnRecordResult> {
      try {
        if (!d.holderTokenMint) throw new BurnNotRecordable('HOLDER_TOKEN_MINT is not configured');
        return await recordVerifiedBurn({ reader: d.burnReader, burnStore: d.burnStore, tokenMint: d.holderTokenMint, now: d.now }, input);
      } catch (e) {
        if (e instanceof BurnNotRecordable || e instanceof ObligationsNotOpen) throw ApplicationFailure.nonRetryable(e.message, e.name);
        throw e;
      }
    },
  };
}
export type BurnActivities = ReturnType<typeof createBurnActivities>;
