import { ApiKeyUnavailableError, createApiKeyStore, type ApiKeyRecord } from '../access/api-key-store';
import { planTierAt } from '../../domain/access/tiers';
import { PlanNotExtendable, type PlanKey, type PlanKeyPort } from '../../domain/billing/plan-keys';
import type { Db } from '../db-handle';

const toPlanKey = (k: ApiKeyRecord | undefined): PlanKey | undefined =>
  k && { id: k.id, prefix: k.prefix, tier: k.tier, planExpiresAt: k.planExpiresAt, revoked: k.revokedAt !== null };

/** Billing's view of the API key store; over a transaction when given one, so activation commits as a whole. */
export function createPlanKeys(handle: Db): PlanKeyPort {
  const store = createApiKeyStore(handle);
  return {
    issueKey: (memo) => store.issueKey({ source: 'upgrade', awaitingPaymentOf: memo }),
    findByPlaintext: async (plaintext) => toPlanKey(await store.findByPlaintext(plaintext)),
    findById: async (id) => toPlanKey(await store.getById(id)),
    async extendPlan(g) {
      let planExpiresAt: Date | null;
      try {
        ({ planExpiresAt } = await store.extendPlan({ keyId: g.keyId, grantId: g.grantId, tier: g.tier, plan: g.plan, days: g.days, now: g.now }));
      } catch (e) {
        if (e instanceof ApiKeyUnavailableError) throw new PlanNotExtendable(e.message);
        throw e;
      }
      // Only contract grants (enterprise) run without an end, and /api/upgrade refuses their keys.
      if (!planExpiresAt) throw new PlanNotExtendable(`api key ${g.keyId} has a plan without end`);
      return { planExpiresAt };
    },
    async revertIfLapsed(keyId, now) {
      if (await store.lapsePlan(keyId, now)) return 'reverted';
      const k = await store.getById(keyId);
      return k && planTierAt(k, now) !== 'free' ? 'renewed' : 'already_free';
    },
  };
}
