import { wilsonInterval, wilsonLowerBound, wilsonUpperBound, Z_ONE_SIDED_95, Z_TWO_SIDED_95 } from '../../../domain/verdict/wilson';

describe('Wilson score interval', () => {
  it('reproduces Newcombe (1998), Table I, method 3 (two-sided 95%)', () => {
    // Newcombe RG. Two-sided confidence intervals for the single proportion: comparison of seven methods.
    // Statistics in Medicine 1998;17:857–872, Table I, "score method without continuity correction".
    const cases: [number, number, number, number][] = [
      [81, 263, 0.2553, 0.3662],
      [15, 148, 0.0624, 0.1605],
      [0, 20, 0, 0.1611],
      [1, 29, 0.0061, 0.1718],
      [29, 29, 0.883, 1],
    ];
    for (const [k, n, lo, hi] of cases) {
      const w = wilsonInterval(k, n, Z_TWO_SIDED_95)!;
      expect(w.lower).toBeCloseTo(lo, 4);
      expect(w.upper).toBeCloseTo(hi, 4);
    }
  });

  it('one-sided 95% bounds use z = 1.6449 (independently computed values)', () => {
    expect(Z_ONE_SIDED_95).toBeCloseTo(1.6448536269514722, 15);
    expect(wilsonLowerBound(81, 263)).toBeCloseTo(0.26331361718848145, 12);
    expect(wilsonUpperBound(81, 263)).toBeCloseTo(0.35656634960848815, 12);
    expect(wilsonUpperBound(0, 20)).toBeCloseTo(0.11915783736096448, 12);
    expect(wilsonLowerBound(1, 29)).toBeCloseTo(0.007730807972738015, 12);
  });

  it('is exactly 0 at k = 0 and exactly 1 at k = n, and null with no trials', () => {
    expect(wilsonLowerBound(0, 50)).toBe(0);
    expect(Object.is(wilsonLowerBound(0, 7), 0)).toBe(true);
    expect(wilsonUpperBound(50, 50)).toBe(1);
    expect(wilsonInterval(0, 0, Z_ONE_SIDED_95)).toBeNull();
    expect(wilsonLowerBound(0, 0)).toBeNull();
  });

  it('narrows around the rate as n grows', () => {
    const small = wilsonInterval(5, 50, Z_ONE_SIDED_95)!;
    const large = wilsonInterval(500, 5000, Z_ONE_SIDED_95)!;
    expect(small.lower).toBeLessThan(large.lower);
    expect(large.lower).toBeLessThan(0.1);
    expect(large.upper).toBeGreaterThan(0.1);
    expect(large.upper - large.lower).toBeLessThan(small.upper - small.lower);
  });

  it('refuses impossible counts', () => {
    expect(() => wilsonInterval(3, 2, Z_ONE_SIDED_95)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 2, Z_ONE_SIDED_95)).toThrow(RangeError);
    expect(() => wilsonInterval(1, 2.5, Z_ONE_SIDED_95)).toThrow(RangeError);
    expect(() => wilsonInterval(1, 2, 0)).toThrow(RangeError);
  });
});
