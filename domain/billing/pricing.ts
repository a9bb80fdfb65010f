import { PLAN_DAYS, PLAN_PRICE_SOL, type Plan } from '../access/tiers';
import { unitsToDecimalString } from './decimal-units';

/**
 * Plans sold through `/api/upgrade`, priced by the one table of spec section 8 (domain/access/tiers.ts), in
 * integer lamports here: the amount a payer must send is compared exactly with what arrived, never as floats.
 * Enterprise is arranged directly and has no list price.
 */
export type PurchasableTier = keyof typeof PLAN_PRICE_SOL;
export type { Plan };
export { PLAN_DAYS };

export const LAMPORTS_PER_SOL = 1_000_000_000n;
const SOL_DECIMALS = 9;

/** Exact for any SOL amount written with at most nine decimals (the table's 0.4 is 400 000 000, not 399 999 999). */
export function solToLamports(sol: number): bigint {
  if (!Number.isFinite(sol) || sol < 0) throw new RangeError(`not a SOL amount: ${sol}`);
  const [whole, frac = ''] = sol.toFixed(9).split('.');
  return BigInt(whole!) * LAMPORTS_PER_SOL + BigInt(frac.padEnd(9, '0'));
}

export function planPriceLamports(tier: PurchasableTier, plan: Plan): bigint {
  return solToLamports(PLAN_PRICE_SOL[tier][plan]);
}

/**
 * Exact decimal SOL of a lamport amount, for display and the Solana Pay `amount` field ("0.4", "10", "1.000000001").
 * Solana Pay requires a plain decimal without exponent, which `Number#toString` does not guarantee.
 */
export function lamportsToSolString(lamports: bigint): string {
  return unitsToDecimalString(lamports, SOL_DECIMALS);
}

/** SOL as a JSON number; exact for every amount below 2^53 lamports (about nine million SOL). */
export function lamportsToSol(lamports: bigint): number {
  return Number(lamportsToSolString(lamports));
}
