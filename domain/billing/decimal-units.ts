/**
 * Exact decimal strings for integer amounts in base units (lamports: 9 decimals; a token's raw units: its mint's
 * decimals). Payments are compared in base units; these strings are what people and wallets read ("0.4",
 * "1234.5"), without exponent or float noise, as Solana Pay requires.
 */
export function unitsToDecimalString(units: bigint, decimals: number): string {
  if (units < 0n) throw new RangeError('negative amount');
  if (!Number.isInteger(decimals) || decimals < 0) throw new RangeError(`not a decimals count: ${decimals}`);
  const scale = 10n ** BigInt(decimals);
  const frac = (units % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return frac ? `${units / scale}.${frac}` : (units / scale).toString();
}

export const DECIMAL_STRING = /^\d+(\.\d+)?$/;

/** A plain non-negative decimal ("2500", "0.125") as digits over a power of ten, exactly. */
export function parseDecimal(s: string): { digits: bigint; scale: number } {
  if (!DECIMAL_STRING.test(s)) throw new RangeError(`not a plain decimal: ${s}`);
  const [whole, frac = ''] = s.split('.');
  return { digits: BigInt(whole! + frac), scale: frac.length };
}
