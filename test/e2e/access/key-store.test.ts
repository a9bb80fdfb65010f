import { ApiKeyUnavailableError, createApiKeyStore } from '../../../db/access/api-key-store';
import { createUsageStore } from '../../../db/access/usage-store';
import { createTestDatabase } from '../../support/test-db';

let t: Awaited<ReturnType<typeof createTestDatabase>>;
const DAY = 86_400_000;
const now = new Date('2026-11-23T10:00:00Z');

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

describe('api key store', () => {
  it('issues a key whose plaintext is never stored and finds it by plaintext only', async () => {
    const store = createApiKeyStore(t.db, { now: () => now });
    const k = await store.issueKey({ tier: 'free', source: 'admin' });
    const row = await t.db('api_keys').where({ id: k.id }).first();
    expect(JSON.stringify(row)).not.toContain(k.plaintext.split('_').pop());
    expect(Buffer.from(row.key_hash).length).toBe(32);

    const found = await store.findByPlaintext(k.plaintext);
    expect(found).toMatchObject({ id: k.id, prefix: k.prefix, tier: 'free', source: 'admin', createdAt: now, revokedAt: null });
    // Same prefix, different secret: found by prefix, refused by the hash.
    const forged = `${k.prefix}_${'2'.repeat(44)}`;
    expect(await store.findByPlaintext(forged)).toBeUndefined();
    expect(await store.findByPlaintext('not a key')).toBeUndefined();
    expect(await store.getById(k.id)).toEqual(found);
    expect(await store.getByPrefix(k.prefix)).toEqual(found);

    await store.revoke(k.id, now);
    expect(await store.findByPlaintext(k.plaintext)).toBeUndefined();
    expect((await store.getById(k.id))?.revokedAt).toEqual(now);
  });

  it('refuses an enterprise key without its contract quota', async () => {
    const store = createApiKeyStore(t.db);
    await expect(store.issueKey({ tier: 'enterprise', source: 'admin' })).rejects.toThrow(/customDailyQuota/);
    const e = await store.issueKey({ tier: 'enterprise', customDailyQuota: 2_000_000, source: 'admin' });
    expect((await store.getById(e.id))?.customDailyQuota).toBe(2_000_000);
  });

  it('extends a plan once per grant id, even when the same grant races itself', async () => {
    const store = createApiKeyStore(t.db);
    const k = await store.issueKey({ source: 'upgrade' });
    const results = await Promise.all(
      Array.from({ length: 8 }, () => store.extendPlan({ keyId: k.id, grantId: 'payment:memo-1', tier: 'pro', plan: 'monthly', days: 30, now })),
    );
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    for (const r of results) expect(r).toMatchObject({ tier: 'pro', plan: 'monthly', planExpiresAt: new Date(now.getTime() + 30 * DAY) });

    const later = new Date(now.getTime() + 5 * DAY);
    const yearly = await store.extendPlan({ keyId: k.id, grantId: 'payment:memo-2', tier: 'pro', plan: 'yearly', days: 365, now: later });
    expect(yearly).toEqual({ applied: true, tier: 'pro', plan: 'yearly', planExpiresAt: new Date(now.getTime() + 395 * DAY) });
    expect(await t.db('api_key_plan_grants').where({ key_id: k.id }).count('* as n').first()).toEqual({ n: 2 });

    const other = await store.issueKey({ source: 'upgrade' });
    await expect(store.extendPlan({ keyId: other.id, grantId: 'payment:memo-1', tier: 'pro', days: 30 })).rejects.toThrow(/another key/);
    await expect(store.extendPlan({ keyId: 999_999, grantId: 'payment:x', tier: 'pro', days: 30 })).rejects.toBeInstanceOf(ApiKeyUnavailableError);
    await store.revoke(other.id);
    await expect(store.extendPlan({ keyId: other.id, grantId: 'payment:y', tier: 'pro', days: 30 })).rejects.toThrow(/revoked/);
  });

  it('grants calls up to the limit, never lowers a count when the limit drops, and tallies the rest', async () => {
    const k = await createApiKeyStore(t.db).issueKey({ source: 'admin' });
    const usage = createUsageStore(t.db);
    expect(await usage.consume(k.id, '2026-11-23', 5, 3)).toEqual({ granted: 3, used: 3 });
    expect(await usage.consume(k.id, '2026-11-23', 2, 10)).toEqual({ granted: 2, used: 5 });
    expect(await usage.consume(k.id, '2026-11-23', 1, 4)).toEqual({ granted: 0, used: 5 });
    expect(await usage.consume(k.id, '2026-11-24', 1, 0)).toEqual({ granted: 0, used: 0 });
    expect(await usage.usedOn(k.id, '2026-11-23')).toBe(5);
    const row = await t.db('api_key_daily_usage').where({ key_id: k.id, day: '2026-11-23' }).first();
    expect(row.over_quota).toBe(3);
    await expect(usage.consume(k.id, '2026-11-23', 0, 10)).rejects.toThrow(/at least one/);
    // Several keys in one statement, answered in the order asked; a key asked twice (its limit changed between two
    // calls) sees its first ask's count in the second.
    const k2 = await createApiKeyStore(t.db).issueKey({ source: 'admin' });
    expect(
      await usage.consumeMany([
        { keyId: k2.id, day: '2026-11-23', n: 4, limit: 3 },
        { keyId: k.id, day: '2026-11-23', n: 2, limit: 6 },
        { keyId: k2.id, day: '2026-11-23', n: 2, limit: 4 },
      ]),
    ).toEqual([
      { granted: 3, used: 3 },
      { granted: 1, used: 6 },
      { granted: 1, used: 4 },
    ]);
    await expect(usage.consumeMany([{ keyId: k.id, day: '2026-11-23', n: 0, limit: 6 }])).rejects.toThrow(/at least one/);
  });
});
