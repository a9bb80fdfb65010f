import { COMPOSITE_VERSION, COMPOSITE_WINDOW_S, compositeScore, freshness, inCompositeWindow } from '../../../domain/signals/composite-score';

describe('composite score v1', () => {
  it('is smart_money_in × max_mult × 1 / (1 + age_s / 600)', () => {
    const s = compositeScore({ smartMoneyIn: 3, maxMult: 2.5, ageS: 60 });
    expect(s.score).toBeCloseTo((3 * 2.5) / 1.1, 12);
    expect(s).toMatchObject({ version: COMPOSITE_VERSION, smartMoneyIn: 3, maxMult: 2.5, ageS: 60 });
    expect(s.freshness).toBeCloseTo(1 / 1.1, 12);
    // Freshness halves at 600 s.
    expect(freshness(600)).toBe(0.5);
  });

  it('counts max_mult <= 0 as 1', () => {
    expect(compositeScore({ smartMoneyIn: 2, maxMult: 0, ageS: 600 })).toMatchObject({ score: 1, maxMult: 1 });
    expect(compositeScore({ smartMoneyIn: 2, maxMult: -3, ageS: 600 })).toMatchObject({ score: 1, maxMult: 1 });
    // A multiple just above 0 is kept as it is.
    expect(compositeScore({ smartMoneyIn: 2, maxMult: 0.5, ageS: 600 }).score).toBe(0.5);
  });

  it('floors age at 1 s, negative ages included', () => {
    const atOne = compositeScore({ smartMoneyIn: 1, maxMult: 1, ageS: 1 }).score;
    expect(atOne).toBe(1 / (1 + 1 / 600));
    expect(compositeScore({ smartMoneyIn: 1, maxMult: 1, ageS: 0 }).score).toBe(atOne);
    expect(compositeScore({ smartMoneyIn: 1, maxMult: 1, ageS: 0.4 }).score).toBe(atOne);
    expect(compositeScore({ smartMoneyIn: 1, maxMult: 1, ageS: -2 })).toMatchObject({ score: atOne, ageS: 1 });
    expect(compositeScore({ smartMoneyIn: 1, maxMult: 1, ageS: 1.5 }).score).toBeLessThan(atOne);
  });

  it('is 0 without smart money, whatever the multiple', () => {
    expect(compositeScore({ smartMoneyIn: 0, maxMult: 14, ageS: 30 }).score).toBe(0);
  });

  it('refuses malformed inputs instead of scoring them', () => {
    expect(() => compositeScore({ smartMoneyIn: 1.5, maxMult: 1, ageS: 10 })).toThrow(RangeError);
    expect(() => compositeScore({ smartMoneyIn: -1, maxMult: 1, ageS: 10 })).toThrow(RangeError);
    expect(() => compositeScore({ smartMoneyIn: 1, maxMult: NaN, ageS: 10 })).toThrow(RangeError);
    expect(() => compositeScore({ smartMoneyIn: 1, maxMult: Infinity, ageS: 10 })).toThrow(RangeError);
    expect(() => compositeScore({ smartMoneyIn: 1, maxMult: 1, ageS: NaN })).toThrow(RangeError);
    expect(() => compositeScore({ smartMoneyIn: 1, maxMult: { usd: 5 } as unknown as number, ageS: 10 })).toThrow(RangeError);
  });

  it('is evaluated only for mints younger than the 120 s window', () => {
    expect(COMPOSITE_WINDOW_S).toBe(120);
    expect(inCompositeWindow(0)).toBe(true);
    expect(inCompositeWindow(-0.5)).toBe(true);
    expect(inCompositeWindow(119.999)).toBe(true);
    expect(inCompositeWindow(120)).toBe(false);
    expect(() => inCompositeWindow(NaN)).toThrow(RangeError);
  });
});
