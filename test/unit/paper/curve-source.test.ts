import { curveTapeDown } from '../../../domain/paper/curve-source';

describe('the curve as a price source', () => {
  const now = Date.parse('2026-11-24T12:00:00Z');

  it('is down once the trade tape has brought nothing for exactly the lag limit, not a millisecond before', () => {
    expect(curveTapeDown(now - 90_000 + 1, now, 90)).toBe(false);
    expect(curveTapeDown(now - 90_000, now, 90)).toBe(true);
    expect(curveTapeDown(now - 600_000, now, 90)).toBe(true);
  });

  it('is up while the tape flows, and when no feed has ever reported', () => {
    expect(curveTapeDown(now - 1_000, now, 90)).toBe(false);
    expect(curveTapeDown(null, now, 90)).toBe(false);
  });

  it('refuses a lag limit that is not a positive whole number of seconds', () => {
    expect(() => curveTapeDown(now, now, 0)).toThrow(RangeError);
    expect(() => curveTapeDown(now, now, 1.5)).toThrow(RangeError);
  });
});
