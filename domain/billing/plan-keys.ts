import type { Plan, PurchasableTier } from './pricing';

/**
 * What billing needs from the API key store (db/access). Billing never reads key hashes or plaintexts beyond
 * the one it hands back at creation; it grants plans by a dedupe id so a retried activation extends once.
 */
export type PlanKey = { id: number; prefix: string; tier: string; planExpiresAt: Date | null; revoked: boolean };

export type PlanGrant = { grantId: string; keyId: number; tier: PurchasableTier; plan: Plan; days: number; now: Date };

export type PlanKeyPort = {
  /** A new key on the free tier, linked to an intent; its plaintext is returned once. */
  issueKey(): Promise<{ id: number; prefix: string; plaintext: string }>;
  findByPlaintext(plaintext: string): Promise<PlanKey | undefined>;
  findById(id: number): Promise<PlanKey | undefined>;
  /** Extends (or starts) the plan: end = max(now, current end) + days. Granting the same `grantId` twice changes nothing. */
  extendPlan(grant: PlanGrant): Promise<{ planExpiresAt: Date }>;
  /** Back to free when the plan ended at or before `now` and was not renewed; reports what it did. */
  revertIfLapsed(keyId: number, now: Date): Promise<'reverted' | 'renewed' | 'already_free'>;
};
