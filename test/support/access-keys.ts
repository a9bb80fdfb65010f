import { createApiKeyStore, type IssueKeyInput } from '../../db/access/api-key-store';
import type { Tier } from '../../domain/access/tiers';
import type { KnexDb } from '../../db/knex-handle';

const DAY = 86_400_000;

/** A key of `tier` (a paid plan running for 30 days; Enterprise with its contract quota), ready to send. */
export async function issueTestKey(db: KnexDb, tier: Tier, o: Partial<IssueKeyInput> = {}) {
  const k = await createApiKeyStore(db).issueKey({
    tier,
    planExpiresAt: tier === 'free' ? null : new Date(Date.now() + 30 * DAY),
    customDailyQuota: tier === 'enterprise' ? 1_000_000 : null,
    source: 'admin',
    ...o,
  });
  return { ...k, bearer: { Authorization: `Bearer ${k.plaintext}` }, xApiKey: { 'X-API-Key': k.plaintext } };
}
