/** Plans sold through `/api/upgrade` (spec section 8). Enterprise is arranged directly and has no list price. */
export type PurchasableTier = 'builder' | 'pro';
export type Plan = 'monthly' | 'yearly';

export const PURCHASABLE_TIERS: readonly PurchasableTier[] = ['builder', 'pro'];
export const PLANS: readonly Plan[] = ['monthly', 'yearly'];

export const LAMPORTS_PER_SOL = 1_000_000_000n;

// Integer lamports, never floating SOL: the amount a payer must send is compared exactly with what arrived.
const PRICE_LAMPORTS: Record<PurchasableTier, Record<Plan, bigint>> = {
  builder: { monthly: 400_000_000n, yearly: 4_000_000_000n },
  pro: { monthly: 1_000_000_000n, yearly: 10_000_000_000n },
};

/** A yearly plan is 365 days, a monthly one 30; extensions add these to the current end. */
export const PLAN_DAYS: Record<Plan, number> = { monthly: 30, yearly: 365 };

export function planPriceLamports(tier: PurchasableTier, plan: Plan): bigint {
  return PRICE_LAMPORTS[tier][plan];
}

/**
 * Exact decimal SOL of a lamport amount, for display and the Solana Pay `amount` field ("0.4", "10", "1.000000001").
 * Solana Pay requires a plain decimal without exponent, which `Number#toString` does not guarantee.
 */
export function lamportsToSolString(lamports: bigint): string {
  if (lamports < 0n) throw new RangeError('negative lamports');
  const whole = lamports / LAMPORTS_PER_SOL;
  const frac = (lamports % LAMPORTS_PER_SOL).toString().padStart(9, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole.toString();
}

/** SOL as a JSON number; exact for every amount below 2^53 lamports (about nine million SOL). */
export function lamportsToSol(lamports: bigint): number {
  return Number(lamportsToSolString(lamports));
}
