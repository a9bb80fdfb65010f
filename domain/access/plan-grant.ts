import { PLAN_PRICE_SOL, planTierAt, tierRank, type Plan, type Tier } from './tiers';

const DAY_MS = 86_400_000;

export type PlanState = { tier: Tier; plan: Plan | null; planExpiresAt: Date | null };
export type PlanGrant = { tier: Exclude<Tier, 'free'>; plan: Plan | null; days: number };

/** Value of one day of `from` measured in days of `to`, by the spec's monthly prices; 1 when either is unpriced. */
function dayValue(from: Tier, to: Tier): number {
  const f = from === 'builder' || from === 'pro' ? PLAN_PRICE_SOL[from].monthly : undefined;
  const t = to === 'builder' || to === 'pro' ? PLAN_PRICE_SOL[to].monthly : undefined;
  return f !== undefined && t !== undefined ? f / t : 1;
}

/**
 * A paid period applied to a key's plan. Plans end by non-renewal, so time only ever adds up:
 * - no running plan: the grant's tier runs from now for its days;
 * - same tier: its days are added after the current end (max(now, end) + days);
 * - a different tier: the higher of the two runs, and the other one's days are converted into it at the
 *   spec's price ratio (a Builder month on a running Pro plan adds 12 Pro days; upgrading to Pro carries the
 *   unused Builder days over at 0.4), so no purchase is lost and none buys more than it paid for.
 * A plan granted without an end (enterprise contracts) stays without an end.
 */
export function applyPlanGrant(cur: PlanState, g: PlanGrant, now: Date): PlanState {
  if (!(g.days > 0) || !Number.isFinite(g.days)) throw new Error(`a plan grant needs a positive number of days, got ${g.days}`);
  const running = planTierAt(cur, now);
  if (running === 'free') return { tier: g.tier, plan: g.plan, planExpiresAt: new Date(now.getTime() + g.days * DAY_MS) };
  if (cur.planExpiresAt === null) return { ...cur, plan: g.plan ?? cur.plan };
  const remainingMs = cur.planExpiresAt.getTime() - now.getTime();
  if (running === g.tier) return { tier: g.tier, plan: g.plan, planExpiresAt: new Date(cur.planExpiresAt.getTime() + g.days * DAY_MS) };
  if (tierRank(g.tier) > tierRank(running)) {
    const carried = remainingMs * dayValue(running, g.tier);
    return { tier: g.tier, plan: g.plan, planExpiresAt: new Date(now.getTime() + g.days * DAY_MS + carried) };
  }
  const added = g.days * DAY_MS * dayValue(g.tier, running);
  return { tier: running, plan: cur.plan, planExpiresAt: new Date(cur.planExpiresAt.getTime() + added) };
}
