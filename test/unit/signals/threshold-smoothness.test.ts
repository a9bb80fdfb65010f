import { RollingThreshold } from '../../../domain/signals/rolling-threshold';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';

/**
 * A simulated 30 h of random composite scores from a known distribution (80% zeros, the rest lognormal), with
 * traffic swinging ±80% over the day, read every minute. Steps are measured where they matter: as the change of
 * F(threshold), the share of scores the threshold lets through, so a step of 0.05 would be the jump from P95 to
 * P90 that a switch at exactly 24 h makes.
 */
const T0 = Date.parse('2026-11-01T00:00:00Z');
const MIN = 60_000;
const ZERO_SHARE = 0.8;
const MEDIAN = 8;
const SIGMA = 0.8;

/** Standard normal CDF (Abramowitz–Stegun 7.1.26, error < 1.5e-7). */
function phi(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}
const cdf = (x: number) => (x <= 0 ? ZERO_SHARE : ZERO_SHARE + (1 - ZERO_SHARE) * phi((Math.log(x) - Math.log(MEDIAN)) / SIGMA));

describe('threshold smoothness over a simulated day', () => {
  const rnd = new SeededRandom(2026);
  const t = new RollingThreshold();
  const readings: { minute: number; value: number | null; quantile: number; samples: number; f: number | null }[] = [];
  let carry = 0;
  for (let minute = 0; minute < 30 * 60; minute++) {
    const now = T0 + minute * MIN;
    carry += 120 * (1 + 0.8 * Math.sin((2 * Math.PI * minute) / (24 * 60)));
    for (; carry >= 1; carry--) t.add(rnd.chance(ZERO_SHARE) ? 0 : rnd.lognormal(MEDIAN, SIGMA), now + rnd.int(0, MIN));
    const r = t.threshold(now + MIN - 1);
    readings.push({ minute, value: r.value, quantile: r.quantile, samples: r.samples, f: r.value === null ? null : cdf(r.value) });
  }
  const steps = (from: number, to: number) => {
    let maxF = 0;
    let maxRel = 0;
    for (let k = Math.max(1, from); k < to; k++) {
      const a = readings[k - 1]!;
      const b = readings[k]!;
      if (a.value === null || b.value === null) continue;
      maxF = Math.max(maxF, Math.abs(b.f! - a.f!));
      maxRel = Math.max(maxRel, Math.abs(b.value / a.value - 1));
    }
    return { maxF, maxRel };
  };

  it('lets through what its quantile says, within the sketch and sampling error', () => {
    for (const minute of [2 * 60, 12 * 60, 17 * 60, 21 * 60, 24 * 60, 29 * 60]) {
      const r = readings[minute]!;
      expect(Math.abs(r.f! - r.quantile)).toBeLessThan(0.006);
    }
    expect(readings[12 * 60]!.quantile).toBe(0.95);
    expect(readings[29 * 60]!.quantile).toBe(0.9);
  });

  it('moves by less than 0.005 of F per minute after its first hour, the 24 h mark included', () => {
    const { maxF, maxRel } = steps(60, readings.length);
    expect(maxF).toBeLessThan(0.005); // a switch at 24 h would step by 0.05
    expect(maxRel).toBeLessThan(0.05); // two bins of the sketch
    const around24h = steps(17 * 60, 25 * 60);
    expect(around24h.maxF).toBeLessThan(0.005);
  });

  it('lowers the bar monotonically in quantile through the ramp, and by 0.05 over 6 h rather than at once', () => {
    const ramp = readings.slice(17 * 60, 25 * 60);
    for (let k = 1; k < ramp.length; k++) expect(ramp[k]!.quantile).toBeLessThanOrEqual(ramp[k - 1]!.quantile);
    const drop = readings[18 * 60]!.f! - readings[24 * 60]!.f!;
    expect(drop).toBeGreaterThan(0.04);
    expect(drop).toBeLessThan(0.06);
  });

  it('is null until 30 samples and settles within its first hour', () => {
    const first = readings.findIndex((r) => r.value !== null);
    expect(readings[first]!.samples).toBeGreaterThanOrEqual(30);
    expect(steps(first, 60).maxF).toBeLessThan(0.05);
  });
});
