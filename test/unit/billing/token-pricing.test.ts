import { parseDecimal, unitsToDecimalString } from '../../../domain/billing/decimal-units';
import { paymentUnitOf, priceUnitsOf } from '../../../domain/billing/pay-with';
import { tokenPriceRaw } from '../../../domain/billing/token-pricing';

describe('token prices', () => {
  it('prices a plan at the configured tokens per SOL, in the mint’s raw units, exactly', () => {
    // Pro monthly (1 SOL) at 25,000 tokens per SOL, 6 decimals.
    expect(tokenPriceRaw(1_000_000_000n, '25000', 6)).toBe(25_000_000_000n);
    // Builder monthly (0.4 SOL) at 12,345.678 per SOL: 4,938.2712 tokens.
    expect(tokenPriceRaw(400_000_000n, '12345.678', 6)).toBe(4_938_271_200n);
    expect(tokenPriceRaw(10_000_000_000n, '0.5', 0)).toBe(5n);
  });

  it('rounds up to the next raw unit, so nobody is asked for less than the rate', () => {
    expect(tokenPriceRaw(400_000_000n, '0.0000001', 6)).toBe(1n); // 0.00000004 tokens → 1 raw unit
    expect(tokenPriceRaw(1_000_000_000n, '1.0000001', 6)).toBe(1_000_001n);
    expect(() => tokenPriceRaw(1n, '0', 6)).toThrow(RangeError);
    expect(() => tokenPriceRaw(1n, '1e5', 6)).toThrow(RangeError);
  });

  it('prints raw units as exact decimals and reads plain decimals back', () => {
    expect(unitsToDecimalString(12_500_500_000n, 6)).toBe('12500.5');
    expect(unitsToDecimalString(18_446_744_073_709_551_615n, 6)).toBe('18446744073709.551615');
    expect(unitsToDecimalString(7n, 0)).toBe('7');
    expect(parseDecimal('12345.678')).toEqual({ digits: 12_345_678n, scale: 3 });
    expect(() => parseDecimal('-1')).toThrow(RangeError);
  });

  it('matches a SOL intent in lamports and a token intent in its mint’s raw units', () => {
    const token = { mint: 'So11111111111111111111111111111111111111112', decimals: 6, amountRaw: 25_000_000_000n };
    expect(priceUnitsOf({ payWith: 'sol', amountLamports: 1_000_000_000n, token: null })).toBe(1_000_000_000n);
    expect(priceUnitsOf({ payWith: 'token', amountLamports: 1_000_000_000n, token })).toBe(25_000_000_000n);
    expect(paymentUnitOf({ payWith: 'token', amountLamports: 1_000_000_000n, token })).toEqual({ payWith: 'token', mint: token.mint });
    expect(paymentUnitOf({ payWith: 'sol', amountLamports: 1n, token: null })).toEqual({ payWith: 'sol' });
  });
});
