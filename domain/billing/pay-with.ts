import { unitsToDecimalString } from './decimal-units';
import { lamportsToSolString } from './pricing';

/** What a plan is paid in: SOL, or the holder token (HOLDER_TOKEN_MINT). */
export type PayWith = 'sol' | 'token';

/** A token intent's price, fixed when the intent is made: raw units of the mint (10^-decimals of a token). */
export type TokenPrice = { mint: string; decimals: number; amountRaw: bigint };

/**
 * The units an intent is paid and matched in: lamports for SOL, the mint's raw units for the token. Only transfers
 * in the intent's own unit count toward it; SOL sent to a token intent (or tokens to a SOL intent) is recorded
 * with the treasury transaction for an operator, never converted.
 */
export type PaymentUnit = { payWith: 'sol' } | { payWith: 'token'; mint: string };

export type PricedIntent = { payWith: PayWith; amountLamports: bigint; token: TokenPrice | null };

export function paymentUnitOf(i: PricedIntent): PaymentUnit {
  return i.payWith === 'token' ? { payWith: 'token', mint: tokenOf(i).mint } : { payWith: 'sol' };
}

/** The amount that completes the intent, in its unit. */
export function priceUnitsOf(i: PricedIntent): bigint {
  return i.payWith === 'token' ? tokenOf(i).amountRaw : i.amountLamports;
}

/**
 * What the payer sends, as the exact decimal in the unit they send it in: SOL, or the token's UI units (with the
 * mint, for Solana Pay's `spl-token`). The one reading of an intent's price for links, pages, reminders and receipts.
 */
export function amountToPay(i: PricedIntent): { amount: string; splToken: string | null } {
  if (i.payWith !== 'token') return { amount: lamportsToSolString(i.amountLamports), splToken: null };
  const t = tokenOf(i);
  return { amount: tokensUiString(t.amountRaw, t.decimals), splToken: t.mint };
}

/** Raw token units as the exact decimal people and wallets read ("12500.5"). */
export function tokensUiString(raw: bigint, decimals: number): string {
  return unitsToDecimalString(raw, decimals);
}

function tokenOf(i: PricedIntent): TokenPrice {
  // The database constraint pairs pay_with 'token' with a price; a row without one is corrupt, not a case to handle.
  if (!i.token) throw new Error('a token intent without its token price');
  return i.token;
}
