import { DEFAULT_DEX_CONFIG, MIGRATION_POOL, sellOnDex } from '../../../domain/paper/dex-fill';

describe('selling after graduation at the DEX price', () => {
  it('with no impact model and no fee, proceeds are tokens × price, exactly', () => {
    // 1,000,000 tokens at 1.2e-7 SOL = 0.12 SOL
    const s = sellOnDex(1_000_000_000_000, 1.2e-7, { feeBps: 0, impact: { kind: 'none' } });
    expect(s.grossLamports).toBe(120_000_000);
    expect(s.proceedsLamports).toBe(120_000_000);
    expect(s.slippage).toBe(0);
    expect(s.impactModel).toBe('none');
  });

  it('takes the pool fee out of the SOL received, rounded up', () => {
    const s = sellOnDex(1_000_000_000_000, 1.2e-7, { feeBps: 30, impact: { kind: 'none' } });
    expect(s.feeLamports).toBe(360_000);
    expect(s.proceedsLamports).toBe(119_640_000);
  });

  it('models the impact as the migration pool re-centred at the quoted price (hand-computed)', () => {
    expect(MIGRATION_POOL).toEqual({ kind: 'constant_product', poolSolLamports: 85_000_000_000, poolTokensRaw: 206_900_000_000_000 });
    // At the migration price (85 SOL / 206.9M tokens) the modelled pool is the migration pool itself.
    const price = 85 / 206_900_000;
    const s = sellOnDex(1_000_000_000_000, price, DEFAULT_DEX_CONFIG);
    // spot value floor(1e12 × 410,826,486,225 / 1e15) = 410,826,486; × 2.069e14 / 2.079e14
    expect(s.grossLamports).toBe(408_850_408);
    expect(s.feeLamports).toBe(1_226_552);
    expect(s.proceedsLamports).toBe(407_623_856);
    // A constant-product sale of N into T tokens loses N / (T + N) of its spot value.
    expect(s.slippage).toBeCloseTo(1e12 / (206.9e12 + 1e12), 8);
  });

  it('costs a 0.1 SOL position about a tenth of a percent at a typical post-graduation price', () => {
    const price = 6e-7;
    const tokens = Math.round((0.1 / price) * 1e6);
    const s = sellOnDex(tokens, price, DEFAULT_DEX_CONFIG);
    expect(s.slippage).toBeGreaterThan(0.0005);
    expect(s.slippage).toBeLessThan(0.002);
  });

  it('deeper prices mean a shallower token side, so more impact for the same tokens', () => {
    const n = 10_000_000_000_000;
    const low = sellOnDex(n, 4e-7, DEFAULT_DEX_CONFIG);
    const high = sellOnDex(n, 1.6e-6, DEFAULT_DEX_CONFIG);
    // The token reserve scales as 1/sqrt(price): at four times the price the pool holds half the tokens.
    const k = 85e9 * 206.9e12;
    const tokensLow = Math.sqrt(k / 4e-4);
    expect(low.slippage).toBeCloseTo(n / (tokensLow + n), 6);
    expect(high.slippage).toBeCloseTo(n / (tokensLow / 2 + n), 6);
  });

  it('refuses a price that is not a finite positive number', () => {
    for (const p of [0, -1, NaN, Infinity]) expect(() => sellOnDex(1_000, p, DEFAULT_DEX_CONFIG)).toThrow(RangeError);
    expect(() => sellOnDex(0, 1e-7, DEFAULT_DEX_CONFIG)).toThrow(RangeError);
    expect(() => sellOnDex(1_000, 1e-7, { feeBps: 30, impact: { kind: 'constant_product', poolSolLamports: 0, poolTokensRaw: 1 } })).toThrow(RangeError);
  });
});
