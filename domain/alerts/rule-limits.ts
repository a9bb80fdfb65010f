import type { Tier } from '../access/tiers';
import { isPremiumKind, type AlertKind, type AlertRule } from './alert-kinds';

/**
 * Spec section 8's messaging limits. Free: one basic rule (grad_prob or vsol_burst) and one premium sample per
 * 24 h: a Free owner may also keep one premium-kind rule, whose fires are delivered at most once per rolling 24 h
 * (the sample). Builder: 10 rules of any kind. Pro and Enterprise: unlimited. Watchlist: Free 5 mints, paid unlimited.
 */
export type RuleLimits = { basicRules: number; premiumRules: number; totalRules: number; premiumFiresPer24h: number; watchlist: number };

const UNLIMITED = Number.POSITIVE_INFINITY;
export const RULE_LIMITS: Readonly<Record<Tier, RuleLimits>> = {
  free: { basicRules: 1, premiumRules: 1, totalRules: 2, premiumFiresPer24h: 1, watchlist: 5 },
  builder: { basicRules: 10, premiumRules: 10, totalRules: 10, premiumFiresPer24h: UNLIMITED, watchlist: UNLIMITED },
  pro: { basicRules: UNLIMITED, premiumRules: UNLIMITED, totalRules: UNLIMITED, premiumFiresPer24h: UNLIMITED, watchlist: UNLIMITED },
  enterprise: { basicRules: UNLIMITED, premiumRules: UNLIMITED, totalRules: UNLIMITED, premiumFiresPer24h: UNLIMITED, watchlist: UNLIMITED },
};

export const PREMIUM_SAMPLE_WINDOW_MS = 24 * 3600 * 1000;

export type AddRuleVerdict = { ok: true } | { ok: false; reason: string };

/** May an owner at `tier` holding `existing` rules add one of `kind`? */
export function canAddRule(tier: Tier, existing: readonly Pick<AlertRule, 'kind'>[], kind: AlertKind): AddRuleVerdict {
  const l = RULE_LIMITS[tier];
  if (existing.length >= l.totalRules) return { ok: false, reason: `your ${tier} plan allows ${l.totalRules} alert rules; remove one first or /upgrade` };
  const premium = isPremiumKind(kind);
  const same = existing.filter((r) => isPremiumKind(r.kind) === premium).length;
  const cap = premium ? l.premiumRules : l.basicRules;
  if (same >= cap) {
    return tier === 'free'
      ? {
          ok: false,
          reason: premium
            ? 'the Free plan keeps one premium-sample rule; remove it first or /upgrade'
            : 'the Free plan keeps one basic rule (grad_prob or vsol_burst); remove it first or /upgrade',
        }
      : { ok: false, reason: `your ${tier} plan allows ${cap} alert rules; remove one first or /upgrade` };
  }
  return { ok: true };
}

/**
 * The rules of one owner that are evaluated at `tier`: after a downgrade the owner keeps its oldest rules within the
 * tier's limits (by id), and the rest wait, untouched, for a renewal.
 */
export function rulesInForce<R extends Pick<AlertRule, 'id' | 'kind'>>(tier: Tier, rules: readonly R[]): R[] {
  const l = RULE_LIMITS[tier];
  if (l.totalRules === UNLIMITED) return [...rules];
  const out: R[] = [];
  let basic = 0;
  let premium = 0;
  for (const r of [...rules].sort((a, b) => a.id - b.id)) {
    if (out.length >= l.totalRules) break;
    const isPremium = isPremiumKind(r.kind);
    if (isPremium && premium < l.premiumRules) {
      premium++;
      out.push(r);
    } else if (!isPremium && basic < l.basicRules) {
      basic++;
      out.push(r);
    }
  }
  return out;
}

/** May a premium-kind fire of this owner be delivered now, given its last premium fire? */
export function premiumFireAllowed(tier: Tier, lastPremiumFireAt: number | null, nowMs: number): boolean {
  if (RULE_LIMITS[tier].premiumFiresPer24h === UNLIMITED) return true;
  return lastPremiumFireAt === null || nowMs - lastPremiumFireAt >= PREMIUM_SAMPLE_WINDOW_MS;
}

export function canWatch(tier: Tier, watched: number): AddRuleVerdict {
  const cap = RULE_LIMITS[tier].watchlist;
  return watched < cap ? { ok: true } : { ok: false, reason: `the ${tier} plan's watchlist holds ${cap} mints; /unwatch one first or /upgrade` };
}
