import { AWAITING_PAYMENT_TTL_MS, createKeyCache } from '../../../api/access/key-cache';
import type { ApiKeyRecord } from '../../../db/access/api-key-store';

const record = (awaitingPaymentOf: string | null): ApiKeyRecord => ({
  id: 1,
  prefix: 'lp_live_1111111111',
  tier: 'free',
  plan: null,
  customDailyQuota: null,
  planExpiresAt: null,
  wallet: null,
  walletLinkedAt: null,
  holderBalance: null,
  holderCheckedAt: null,
  source: 'upgrade',
  createdAt: new Date(0),
  revokedAt: null,
  awaitingPaymentOf,
});

describe('key cache', () => {
  it('keeps a usable key for the whole TTL, a key awaiting payment for a second at most', async () => {
    let clock = 0;
    let current = record('lp-memo');
    let lookups = 0;
    const cache = createKeyCache(async () => (lookups++, current), 5000, { now: () => clock });
    expect((await cache.get('k'))!.awaitingPaymentOf).toBe('lp-memo');
    current = record(null); // paid meanwhile
    clock = AWAITING_PAYMENT_TTL_MS - 1;
    expect((await cache.get('k'))!.awaitingPaymentOf).toBe('lp-memo');
    clock = AWAITING_PAYMENT_TTL_MS;
    expect((await cache.get('k'))!.awaitingPaymentOf).toBeNull();
    expect(lookups).toBe(2);
    clock += 4999;
    await cache.get('k');
    expect(lookups).toBe(2);
    clock += 1;
    await cache.get('k');
    expect(lookups).toBe(3);
  });

  it('peek answers a remembered lookup (known or unknown key) without waiting, only while it is fresh, and only for that key', async () => {
    let clock = 0;
    const known = record(null);
    const cache = createKeyCache(async (k) => (k === 'lp_known' ? known : undefined), 5000, { now: () => clock });
    expect(cache.peek('lp_known')).toBeUndefined();
    await cache.get('lp_known');
    await cache.get('lp_unknown');
    expect(cache.peek('lp_known')?.key).toBe(known);
    expect(cache.peek('lp_unknown')).toMatchObject({ key: undefined });
    // A near miss of a remembered key is not that key.
    expect(cache.peek('lp_know')).toBeUndefined();
    expect(cache.peek('lp_known ')).toBeUndefined();
    clock = 5000;
    expect(cache.peek('lp_known')).toBeUndefined();
  });
});
