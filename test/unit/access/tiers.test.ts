import { applyPlanGrant } from '../../../domain/access/plan-grant';
import { quotaResetAt, secondsUntilReset, utcDay } from '../../../domain/access/quota-day';
import { dailyQuota, effectiveTier, holderAccessFor, planTierAt, type KeyAccess } from '../../../domain/access/tiers';

const DAY = 86_400_000;
const now = new Date('2026-11-23T10:00:00Z');
const th = { signals: 500_000, api: 2_500_000 };
const key = (k: Partial<KeyAccess>): KeyAccess => ({ tier: 'free', planExpiresAt: null, customDailyQuota: null, holderBalance: null, ...k });

describe('tiers', () => {
  it('quotas per tier are 200 / 5,000 / 50,000 / custom', () => {
    expect([dailyQuota('free', null), dailyQuota('builder', null), dailyQuota('pro', 7), dailyQuota('enterprise', 3_000_000)]).toEqual([
      200, 5000, 50000, 3_000_000,
    ]);
  });

  it('a paid plan counts until it expires, then the key is Free', () => {
    const pro = key({ tier: 'pro', planExpiresAt: new Date(now.getTime() + 1000) });
    expect(planTierAt(pro, now)).toBe('pro');
    expect(planTierAt(pro, new Date(now.getTime() + 1000))).toBe('free');
    expect(planTierAt(key({ tier: 'enterprise', planExpiresAt: null, customDailyQuota: 1 }), now)).toBe('enterprise');
  });

  it('holder balance thresholds: 500k signals, 2.5M api (Builder on the API)', () => {
    expect(holderAccessFor(null, th)).toBeNull();
    expect(holderAccessFor(499_999.999, th)).toBeNull();
    expect(holderAccessFor(500_000, th)).toBe('signals');
    expect(holderAccessFor(2_500_000, th)).toBe('api');
    expect(effectiveTier(key({ holderBalance: 600_000 }), now, th)).toBe('free');
    expect(effectiveTier(key({ holderBalance: 2_500_000 }), now, th)).toBe('builder');
  });

  it('effective tier is the higher of the running plan and holder access', () => {
    const expired = key({ tier: 'pro', planExpiresAt: new Date(now.getTime() - 1), holderBalance: 3e6 });
    expect(effectiveTier(expired, now, th)).toBe('builder');
    expect(effectiveTier({ ...expired, planExpiresAt: new Date(now.getTime() + DAY) }, now, th)).toBe('pro');
    expect(effectiveTier({ ...expired, holderBalance: 10 }, now, th)).toBe('free');
  });
});

describe('plan grants', () => {
  const none = { tier: 'free' as const, plan: null, planExpiresAt: null };
  it('activates from now, and the same tier extends from the current end', () => {
    const a = applyPlanGrant(none, { tier: 'pro', plan: 'monthly', days: 30 }, now);
    expect(a).toEqual({ tier: 'pro', plan: 'monthly', planExpiresAt: new Date(now.getTime() + 30 * DAY) });
    const b = applyPlanGrant(a, { tier: 'pro', plan: 'yearly', days: 365 }, new Date(now.getTime() + 10 * DAY));
    expect(b.planExpiresAt).toEqual(new Date(now.getTime() + 395 * DAY));
  });

  it('a lapsed plan restarts from now (max(now, end) + days)', () => {
    const lapsed = { tier: 'builder' as const, plan: 'monthly' as const, planExpiresAt: new Date(now.getTime() - 5 * DAY) };
    expect(applyPlanGrant(lapsed, { tier: 'builder', plan: 'monthly', days: 30 }, now).planExpiresAt).toEqual(new Date(now.getTime() + 30 * DAY));
  });

  it('mixing tiers converts the other tier’s days at the price ratio (Builder 0.4 : Pro 1)', () => {
    const builder = { tier: 'builder' as const, plan: 'monthly' as const, planExpiresAt: new Date(now.getTime() + 10 * DAY) };
    const up = applyPlanGrant(builder, { tier: 'pro', plan: 'monthly', days: 30 }, now);
    expect(up).toEqual({ tier: 'pro', plan: 'monthly', planExpiresAt: new Date(now.getTime() + 34 * DAY) });
    const down = applyPlanGrant(up, { tier: 'builder', plan: 'monthly', days: 30 }, now);
    expect(down).toEqual({ tier: 'pro', plan: 'monthly', planExpiresAt: new Date(now.getTime() + 46 * DAY) });
  });

  it('refuses a grant without positive days', () => {
    expect(() => applyPlanGrant(none, { tier: 'pro', plan: null, days: 0 }, now)).toThrow(/positive/);
    expect(() => applyPlanGrant(none, { tier: 'pro', plan: null, days: Number.NaN }, now)).toThrow(/positive/);
  });
});

describe('quota day', () => {
  it('counts per UTC day and resets at the next 00:00 UTC', () => {
    const late = new Date('2026-11-23T23:59:59.500Z');
    expect(utcDay(late)).toBe('2026-11-23');
    expect(quotaResetAt(late).toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(secondsUntilReset(late)).toBe(1);
    expect(secondsUntilReset(new Date('2026-11-23T00:00:00Z'))).toBe(86_400);
    expect(quotaResetAt(new Date('2026-12-31T12:00:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });
});
