import { parseDecimal } from './decimal-units';
import { LAMPORTS_PER_SOL } from './pricing';

/**
 * A plan's price in the holder token: the list price in SOL times the configured rate (TOKEN_PAYMENT_TOKENS_PER_SOL,
 * token UI units per SOL, an exact decimal string), in the mint's raw units. Integer arithmetic throughout; the
 * result rounds up to the next raw unit, so a payer is never asked for less than the configured rate (at most
 * 10^-decimals of a token more).
 */
export function tokenPriceRaw(priceLamports: bigint, tokensPerSol: string, decimals: number): bigint {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) throw new RangeError(`not a mint's decimals: ${decimals}`);
  const rate = parseDecimal(tokensPerSol);
  if (rate.digits === 0n) throw new RangeError('paying with the token is not offered at a rate of 0');
  const numerator = priceLamports * rate.digits * 10n ** BigInt(decimals);
  const denominator = LAMPORTS_PER_SOL * 10n ** BigInt(rate.scale);
  return (numerator + denominator - 1n) / denominator;
}
