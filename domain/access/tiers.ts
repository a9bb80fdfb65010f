/**
 * Tiers and what they buy (spec section 8). Pure: the API, stores and workflows all decide access through
 * these functions, so one table says who may do what.
 */
export const TIERS = ['free', 'builder', 'pro', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export const tierRank = (t: Tier): number => TIERS.indexOf(t);
export const tierAtLeast = (t: Tier, min: Tier): boolean => tierRank(t) >= tierRank(min);
export const higherTier = (a: Tier, b: Tier): Tier => (tierRank(a) >= tierRank(b) ? a : b);

/** API calls per UTC day; Enterprise is custom, set per key. */
export const TIER_DAILY_QUOTA: Readonly<Record<Exclude<Tier, 'enterprise'>, number>> = { free: 200, builder: 5_000, pro: 50_000 };

export type Plan = 'monthly' | 'yearly';
export const PLAN_DAYS: Readonly<Record<Plan, number>> = { monthly: 30, yearly: 365 };
/** Spec section 8 prices in native-coin units (SOL); Enterprise is priced by contract. */
export const PLAN_PRICE_SOL: Readonly<Record<'builder' | 'pro', Record<Plan, number>>> = {
  builder: { monthly: 0.4, yearly: 4 },
  pro: { monthly: 1, yearly: 10 },
};

export type HolderAccess = 'signals' | 'api';
/** Holder-token balances (UI units) that grant each access level; configured, spec defaults 500k and 2.5M. */
export type HolderThresholds = { signals: number; api: number };
/**
 * What holder access is worth on the API: `api` (2.5M held) opens the keyed API at the Builder level;
 * `signals` (500k) is messaging-bot signal access and adds nothing above Free on the API.
 */
export const HOLDER_ACCESS_TIER: Readonly<Record<HolderAccess, Tier>> = { signals: 'free', api: 'builder' };

export function holderAccessFor(balance: number | null, th: HolderThresholds): HolderAccess | null {
  if (balance === null || !Number.isFinite(balance)) return null;
  if (balance >= th.api) return 'api';
  if (balance >= th.signals) return 'signals';
  return null;
}

/** The parts of a key that decide its access. */
export type KeyAccess = {
  tier: Tier;
  planExpiresAt: Date | null;
  customDailyQuota: number | null;
  holderBalance: number | null;
};

/** The paid plan's tier while it runs (no end date = granted without end); Free once it has lapsed. */
export function planTierAt(k: Pick<KeyAccess, 'tier' | 'planExpiresAt'>, now: Date): Tier {
  if (k.tier === 'free') return 'free';
  return k.planExpiresAt === null || k.planExpiresAt.getTime() > now.getTime() ? k.tier : 'free';
}

/** Effective tier = the higher of the running paid plan and what the credited holder-token balance grants. */
export function effectiveTier(k: KeyAccess, now: Date, th: HolderThresholds): Tier {
  const access = holderAccessFor(k.holderBalance, th);
  return higherTier(planTierAt(k, now), access ? HOLDER_ACCESS_TIER[access] : 'free');
}

export function dailyQuota(tier: Tier, customDailyQuota: number | null): number {
  if (tier === 'enterprise') return customDailyQuota ?? 0;
  return TIER_DAILY_QUOTA[tier];
}
