import type { Plan, PurchasableTier } from './pricing';

/**
 * What billing needs from the API key store (db/access), adapted in db/billing/plan-keys.ts. Billing never sees key
 * hashes, nor a plaintext beyond the one it hands back at creation; it grants plans with the intent as the
 * dedupe id so a retried activation extends once.
 */
export type PlanKey = { id: number; prefix: string; tier: string; planExpiresAt: Date | null; revoked: boolean };

export type PlanGrant = { grantId: string; keyId: number; tier: PurchasableTier; plan: Plan; days: number; now: Date };

/** The key cannot take a paid period: unknown, revoked, or on a plan without end (a contract). Permanent. */
export class PlanNotExtendable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlanNotExtendable';
  }
}

export type PlanKeyPort = {
  /**
   * A new key for the intent `memo`; its plaintext is returned once. It stays unusable until a plan is granted to it
   * (the intent's payment, or a later intent's for the same key): free issuance is closed.
   */
  issueKey(memo: string): Promise<{ id: number; prefix: string; plaintext: string }>;
  /** Live keys only: unknown, malformed and revoked plaintexts all answer undefined. */
  findByPlaintext(plaintext: string): Promise<PlanKey | undefined>;
  findById(id: number): Promise<PlanKey | undefined>;
  /**
   * Starts or extends the plan (rules in domain/access/plan-grant.ts); the same `grantId` twice changes nothing.
   * Throws PlanNotExtendable when the key cannot take it.
   */
  extendPlan(grant: PlanGrant): Promise<{ planExpiresAt: Date }>;
  /** Back to free when the plan ended at or before `now`; `renewed` when it now runs past `now`. */
  revertIfLapsed(keyId: number, now: Date): Promise<'reverted' | 'renewed' | 'already_free'>;
};
