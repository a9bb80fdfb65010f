import { evaluateGateValidation, GATE_VALIDATION, gateWithholds, type GateFire } from '../../../domain/accuracy/gate-validation';
import { reachedMultipleAfterGraduation } from '../../../domain/accuracy/gate-validation-outcome';

let seq = 0;
/** `n` fires on one side of the split, `hits` of them reaching 2×. */
function group(side: 'high' | 'low', n: number, hits: number, over: Partial<GateFire> = {}): GateFire[] {
  return Array.from({ length: n }, (_, i) => ({
    mint: `M${seq++}`,
    survivalProb: side === 'high' ? 0.5 + (i % 5) * 0.1 : 0.49 - (i % 5) * 0.1,
    reached2x: i < hits,
    manufacturedPump: false,
    bundleDetected: false,
    ...over,
  }));
}
const run = (fires: GateFire[], prev: Parameters<typeof evaluateGateValidation>[1] = null) => evaluateGateValidation(fires, prev);

describe('gate validation decisions', () => {
  it('carries the spec’s criteria', () => {
    expect(GATE_VALIDATION).toMatchObject({ gate: 'post_grad_survival_prob', splitAt: 0.5, minN: 15, failsBelow: 1.5, validatesAt: 2, holdExtraFires: 30 });
  });

  it('is warming with 14 in either group and decides at 15 in each', () => {
    expect(run([...group('high', 14, 10), ...group('low', 40, 1)]).decision).toBe('warming');
    expect(run([...group('high', 40, 10), ...group('low', 14, 1)]).decision).toBe('warming');
    const r = run([...group('high', 15, 10), ...group('low', 15, 1)]);
    expect(r.decision).toBe('validates');
    expect(r.split).toMatchObject({ high: { n: 15, hits: 10 }, low: { n: 15, hits: 1 } });
    expect(r.split.ratio).toBeCloseTo(10, 12);
  });

  it('splits at exactly 0.5: a score of 0.5 is in the high group', () => {
    const r = run([{ mint: 'X', survivalProb: 0.5, reached2x: true, manufacturedPump: null, bundleDetected: false }]);
    expect(r.split.high.n).toBe(1);
    expect(r.split.low.n).toBe(0);
  });

  it('a ratio of exactly 1.5 holds, just under it fails', () => {
    // 9/15 against 6/15: 0.6 / 0.4, which floating point computes as 1.4999999999999998.
    const exact = run([...group('high', 15, 9), ...group('low', 15, 6)]);
    expect(0.6 / 0.4).toBeLessThan(1.5);
    expect(exact.decision).toBe('hold');
    expect(exact.holdTargetN).toBe(60);
    // 8/15 against 6/15 = 1.33
    expect(run([...group('high', 15, 8), ...group('low', 15, 6)]).decision).toBe('fails');
    // 89/100 against 9/15 = 1.4833 < 1.5
    expect(run([...group('high', 100, 89), ...group('low', 15, 9)]).decision).toBe('fails');
  });

  it('a ratio of exactly 2 validates, just under it holds', () => {
    // 8/15 against 4/15 = 2
    const exact = run([...group('high', 15, 8), ...group('low', 15, 4)]);
    expect(exact.decision).toBe('validates');
    expect(exact.holdTargetN).toBeNull();
    // 159/200 against 6/15 = 1.9875
    const under = run([...group('high', 200, 159), ...group('low', 15, 6)]);
    expect(under.decision).toBe('hold');
    expect(under.holdTargetN).toBe(245);
  });

  it('after a hold, stays on hold until 30 more fires are in, then decides afresh', () => {
    const first = run([...group('high', 15, 9), ...group('low', 15, 6)]);
    expect(first).toMatchObject({ decision: 'hold', n: 30, holdTargetN: 60 });
    // 29 more fires that would validate on their own: still holding.
    const more = [...group('high', 15, 9), ...group('low', 15, 6), ...group('high', 15, 15), ...group('low', 14, 0)];
    const second = run(more, first);
    expect(second).toMatchObject({ decision: 'hold', n: 59, holdTargetN: 60 });
    expect(second.reason).toContain('59 of 60');
    // The 30th: decided again on all 60.
    const third = run([...more, ...group('low', 1, 0)], second);
    expect(third.decision).toBe('validates');
    expect(third.n).toBe(60);
  });

  it('with no low-group hit: unbounded ratio validates, no hit anywhere fails', () => {
    const unbounded = run([...group('high', 15, 1), ...group('low', 15, 0)]);
    expect(unbounded.decision).toBe('validates');
    expect(unbounded.split.ratio).toBeNull();
    expect(unbounded.split.ratioUnbounded).toBe(true);
    const none = run([...group('high', 15, 0), ...group('low', 15, 0)]);
    expect(none.decision).toBe('fails');
    expect(none.split).toMatchObject({ ratio: null, ratioUnbounded: false });
    // Unbounded but warming is still warming.
    expect(run([...group('high', 14, 3), ...group('low', 15, 0)]).decision).toBe('warming');
  });

  it('leaves out fires without a survival score or a known outcome, and counts them', () => {
    const r = run([
      ...group('high', 15, 8),
      ...group('low', 15, 4),
      ...group('high', 3, 0, { survivalProb: null }),
      ...group('low', 2, 0, { reached2x: null }),
    ]);
    expect(r.n).toBe(30);
    expect(r.excluded).toEqual({ noSurvivalScore: 3, outcomeUnknown: 2 });
    expect(() => run(group('high', 1, 0, { survivalProb: 1.2 }))).toThrow(RangeError);
  });

  it('reports the side stratifications, with no decision of their own', () => {
    const r = run([
      ...group('high', 10, 6, { manufacturedPump: true, bundleDetected: true }),
      ...group('low', 10, 1, { manufacturedPump: true }),
      ...group('high', 10, 2, { manufacturedPump: null }),
      ...group('low', 10, 2, { manufacturedPump: false, bundleDetected: true }),
    ]);
    expect(r.manufacturedPumpUnknown).toBe(10);
    const s = (by: string, value: boolean) => r.stratifications.find((x) => x.by === by && x.value === value)!.split;
    expect(s('manufactured_pump', true)).toMatchObject({ high: { n: 10, hits: 6, rate: 0.6 }, low: { n: 10, hits: 1, rate: 0.1 } });
    expect(s('manufactured_pump', true).ratio).toBeCloseTo(6, 12);
    expect(s('manufactured_pump', false)).toMatchObject({ high: { n: 0, rate: null }, low: { n: 10, hits: 2 }, ratio: null });
    expect(s('bundle_detected', true)).toMatchObject({ high: { n: 10, hits: 6 }, low: { n: 10, hits: 2 } });
    expect(s('bundle_detected', false)).toMatchObject({ high: { n: 10, hits: 2 }, low: { n: 10, hits: 1 } });
    expect(r.stratifications.every((x) => !('decision' in x))).toBe(true);
  });
});

describe('gate validation outcome: 2× from entry within 30 min after graduation', () => {
  const G = Date.parse('2026-12-01T12:00:00Z');
  const base = { entryPriceSol: 1e-7, graduatedAtMs: G, graduationPriceSol: 1.5e-7 };

  it('counts the graduation price and checkpoints up to exactly 30 min', () => {
    expect(reachedMultipleAfterGraduation({ ...base, graduationPriceSol: 2e-7, checkpoints: [] })).toBe(true);
    expect(reachedMultipleAfterGraduation({ ...base, checkpoints: [{ atMs: G + 1_800_000, priceSol: 2e-7 }] })).toBe(true);
    expect(
      reachedMultipleAfterGraduation({
        ...base,
        checkpoints: [
          { atMs: G + 1_800_001, priceSol: 9e-7 },
          { atMs: G + 300_000, priceSol: 1.9e-7 },
        ],
      }),
    ).toBe(false);
    expect(
      reachedMultipleAfterGraduation({
        ...base,
        checkpoints: [
          { atMs: G - 1, priceSol: 9e-7 },
          { atMs: G + 300_000, priceSol: 1e-7 },
        ],
      }),
    ).toBe(false);
  });

  it('is unknown when no DEX price was taken in the window', () => {
    expect(reachedMultipleAfterGraduation({ ...base, checkpoints: [] })).toBeNull();
    expect(reachedMultipleAfterGraduation({ ...base, checkpoints: [{ atMs: G + 300_000, priceSol: null }] })).toBeNull();
    expect(() => reachedMultipleAfterGraduation({ ...base, entryPriceSol: 0, checkpoints: [] })).toThrow(RangeError);
  });
});

describe('gateWithholds (the hard suppression an alert path applies)', () => {
  const on = { active: true, suppressBelow: GATE_VALIDATION.splitAt };
  it.each([
    [on, 0.4999, true],
    [on, 0.5, false],
    [on, 0.9, false],
    [on, null, false],
    [{ ...on, active: false }, 0.1, false],
  ])('%o, survival %p → %p', (state, survival, withheld) => {
    expect(gateWithholds(state, survival)).toBe(withheld);
  });
});
