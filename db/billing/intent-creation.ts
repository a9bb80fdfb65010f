import type { PlanKeyPort } from '../../domain/billing/plan-keys';
import { createPaymentIntentStore, type NewIntent } from './payment-intent-store';
import type { Db } from '../db-handle';
import { asDb, knexOf } from '../knex-handle';

export type IntentRequest = Omit<NewIntent, 'keyId' | 'keyPrefix' | 'keyMinted'> & { key: { id: number; prefix: string } | null };

/**
 * Writes a payment intent, minting its key in the same transaction when the payer brought none: either both exist
 * or neither (no orphan keys from a failed request). A minted key awaits the intent's payment before it works. Memos carry 128 random bits; a collision would surface as a
 * unique violation rather than be retried.
 */
export function createIntentCreation(handle: Db, planKeys: (db: Db) => PlanKeyPort) {
  const db = knexOf(handle);
  return {
    async create(r: IntentRequest): Promise<{ intent: NewIntent; plaintext: string | null }> {
      return db.transaction(async (trx) => {
        const minted = r.key ? null : await planKeys(asDb(trx)).issueKey(r.memo);
        const key = r.key ?? minted!;
        const intent: NewIntent = { ...r, keyId: key.id, keyPrefix: key.prefix, keyMinted: minted !== null };
        await createPaymentIntentStore(asDb(trx)).insert(intent);
        return { intent, plaintext: minted?.plaintext ?? null };
      });
    },
  };
}
export type IntentCreation = ReturnType<typeof createIntentCreation>;
