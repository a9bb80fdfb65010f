import { fitCalibrator, smoothedKnnRate } from '../../../domain/scoring/calibration';
import { CONFIDENCE_BANDS, confidenceBand } from '../../../domain/scoring/confidence-band';
import { fitIsotonic, interpolate } from '../../../domain/scoring/isotonic-regression';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';

describe('isotonic regression (PAV)', () => {
  it('pools violators into non-decreasing blocks and pools equal x first', () => {
    const blocks = fitIsotonic([
      { x: 1, y: 1 },
      { x: 2, y: 0 },
      { x: 3, y: 1 },
      { x: 3, y: 0 },
      { x: 4, y: 1 },
    ]);
    expect(blocks.map((b) => [b.xLo, b.xHi, b.weight, b.value])).toEqual([
      [1, 3, 4, 0.5],
      [4, 4, 1, 1],
    ]);
  });

  it('interpolates linearly between block centres, flat beyond the outer centres', () => {
    const blocks = fitIsotonic([
      { x: 0, y: 0 },
      { x: 0.2, y: 0 },
      { x: 0.6, y: 1 },
    ]);
    // Blocks: {0, 0.2} → 0 with centre 0.1; {0.6} → 1.
    expect(interpolate(blocks, -1)).toBe(0);
    expect(interpolate(blocks, 0.1)).toBe(0);
    expect(interpolate(blocks, 0.2)).toBeCloseTo(0.2);
    expect(interpolate(blocks, 0.35)).toBeCloseTo(0.5);
    expect(interpolate(blocks, 0.9)).toBe(1);
  });
});

describe('calibrator', () => {
  const noisy = (n: number, seed: number) => {
    const rng = new SeededRandom(seed);
    return Array.from({ length: n }, () => {
      const grads = rng.int(0, 51);
      return { raw: grads / 50, label: rng.chance(0.02 + 0.5 * (grads / 50) ** 2) };
    });
  };

  it('is monotone in the raw score, strictly inside (0, 1), and keeps distinct raw scores apart', () => {
    const c = fitCalibrator(noisy(2000, 1), { baseRate: 0.05 });
    expect(c.method).toBe('isotonic');
    expect(c.samples).toBe(2000);
    let prev = -1;
    for (let g = 0; g <= 50; g++) {
      const p = c.apply(g, 50);
      expect(p).toBeGreaterThanOrEqual(prev);
      expect(p).toBeGreaterThan(0);
      expect(p).toBeLessThan(1);
      prev = p;
    }
    // Centre interpolation: no wide plateaus where a flat step per pooled block would tie many raw scores.
    const distinct = new Set(Array.from({ length: 51 }, (_, g) => c.apply(g, 50).toFixed(12)));
    expect(distinct.size).toBeGreaterThan(30);
  });

  it('does not saturate: a top block of 3 graduates out of 3 is shrunk towards the base rate', () => {
    const samples = [...Array.from({ length: 297 }, () => ({ raw: 0, label: false })), ...Array.from({ length: 3 }, () => ({ raw: 1, label: true }))];
    const c = fitCalibrator(samples, { baseRate: 0.01, priorStrength: 10 });
    expect(c.apply(50, 50)).toBeCloseTo((3 + 0.1) / 13, 12);
    expect(c.apply(0, 50)).toBeCloseTo(0.1 / 307, 12);
    expect(c.apply(0, 50)).toBeGreaterThan(0);
  });

  it('stays monotone when shrinking would invert a small block above a large one', () => {
    const samples = [
      ...Array.from({ length: 1000 }, (_, i) => ({ raw: 0.2, label: i < 300 })),
      ...Array.from({ length: 5 }, (_, i) => ({ raw: 0.4, label: i < 2 })),
    ];
    const c = fitCalibrator(samples, { baseRate: 0.01, priorStrength: 10, minSamples: 100 });
    expect(c.apply(20, 50)).toBeLessThanOrEqual(c.apply(30, 50));
    expect(c.apply(30, 50)).toBeLessThanOrEqual(c.apply(40, 50));
    expect(c.blocks).toHaveLength(1);
    expect(c.blocks.reduce((n, b) => n + b.n, 0)).toBe(1005);
  });

  it('falls back to the smoothed k-NN rate with too few samples', () => {
    const c = fitCalibrator(noisy(150, 2), { baseRate: 0.02, priorStrength: 10, minSamples: 200 });
    expect(c.method).toBe('smoothed-knn');
    expect(c.apply(50, 50)).toBeCloseTo((50 + 0.2) / 60, 12);
    expect(c.apply(50, 50)).toBe(smoothedKnnRate(50, 50, 0.02, 10));
    expect(c.apply(0, 0)).toBe(0.02);
  });

  it('refuses a base rate that would let it output exactly 0 or 1', () => {
    expect(() => fitCalibrator([], { baseRate: 0 })).toThrow(RangeError);
    expect(() => fitCalibrator([], { baseRate: 1 })).toThrow(RangeError);
  });
});

describe('confidence bands', () => {
  it('are half-open cells covering [0, 1], the last one closed', () => {
    expect(confidenceBand(0)).toEqual({ lo: 0, hi: 0.05 });
    expect(confidenceBand(0.05)).toEqual({ lo: 0.05, hi: 0.1 });
    expect(confidenceBand(0.69)).toEqual({ lo: 0.5, hi: 0.7 });
    expect(confidenceBand(1)).toEqual({ lo: 0.9, hi: 1 });
    expect(CONFIDENCE_BANDS).toHaveLength(7);
    expect(() => confidenceBand(NaN)).toThrow(RangeError);
  });
});
