import { COMPOSITE_TIERS_V1 } from '../../../domain/verdict/preregistration';
import { missingJson, registrationWithT0 } from '../../../domain/verdict/verdict-status';

describe('the registration the evaluator runs with', () => {
  it('is the document’s unless a T0 override is given, which moves only T0', () => {
    expect(registrationWithT0(COMPOSITE_TIERS_V1, null)).toBe(COMPOSITE_TIERS_V1);
    const moved = registrationWithT0(COMPOSITE_TIERS_V1, new Date('2026-11-01T00:00:00Z'));
    expect(moved).toEqual({ ...COMPOSITE_TIERS_V1, t0Ms: Date.parse('2026-11-01T00:00:00Z') });
  });

  it('refuses a T0 off the hour or at the deadline', () => {
    expect(() => registrationWithT0(COMPOSITE_TIERS_V1, new Date('2026-11-01T00:30:00Z'))).toThrow(RangeError);
    expect(() => registrationWithT0(COMPOSITE_TIERS_V1, new Date(COMPOSITE_TIERS_V1.deadlineMs))).toThrow(RangeError);
  });
});

describe('what is missing, as served', () => {
  it('writes each kind in snake_case, days to the thousandth', () => {
    expect(missingJson({ kind: 'days', have: 7.0208333, need: 14 })).toEqual({ kind: 'days', have: 7.021, need: 14 });
    expect(missingJson({ kind: 'resolution', unresolvedCrosses: 2, unresolvedBenchmark: 0, lockableFrom: '2026-12-16T00:00:00.000Z' })).toEqual({
      kind: 'resolution',
      unresolved_crosses: 2,
      unresolved_benchmark: 0,
      lockable_from: '2026-12-16T00:00:00.000Z',
    });
    expect(missingJson({ kind: 'tier_crosses', tier: 'ACT', have: 3, need: 50 })).toEqual({ kind: 'tier_crosses', tier: 'ACT', have: 3, need: 50 });
  });
});
