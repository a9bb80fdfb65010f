import { BIN_COUNT, binIndex, binValue, DenseLogHistogram, MAX_VALUE, MIN_VALUE, nearestRank, RELATIVE_ACCURACY } from '../../../domain/signals/log-histogram';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';

const exactQuantile = (sorted: readonly number[], q: number) => sorted[nearestRank(q, sorted.length) - 1]!;

describe('log histogram sketch', () => {
  it('answers every value in [MIN_VALUE, MAX_VALUE] within 1% relative error', () => {
    const rnd = new SeededRandom(11);
    let worst = 0;
    for (let k = 0; k < 200_000; k++) {
      const x = MIN_VALUE * Math.pow(MAX_VALUE / MIN_VALUE, rnd.float());
      worst = Math.max(worst, Math.abs(binValue(binIndex(x)) - x) / x);
    }
    // Bin edges γ^i themselves, where rounding of the logarithm may pick either neighbour.
    for (let i = -400; i <= 600; i++) {
      const edge = Math.pow((1 + RELATIVE_ACCURACY) / (1 - RELATIVE_ACCURACY), i);
      worst = Math.max(worst, Math.abs(binValue(binIndex(edge)) - edge) / edge);
    }
    expect(worst).toBeLessThanOrEqual(RELATIVE_ACCURACY + 1e-12);
    expect(worst).toBeGreaterThan(0.9 * RELATIVE_ACCURACY); // the bound is tight, not a loose claim
  });

  it('reads quantiles within 1% of the exact order statistic of the same rank', () => {
    for (const seed of [1, 2, 3]) {
      const rnd = new SeededRandom(seed);
      const h = new DenseLogHistogram();
      const xs: number[] = [];
      for (let k = 0; k < 20_000; k++) {
        // Zeros, a lattice like real composites (count × multiple × freshness), and a wide lognormal tail.
        const r = rnd.float();
        const x = r < 0.6 ? 0 : r < 0.9 ? rnd.int(1, 6) * rnd.uniform(1, 15) * rnd.uniform(5 / 6, 1) : rnd.lognormal(3, 2.5);
        xs.push(x);
        h.addToBin(x === 0 ? null : binIndex(x), 1);
      }
      xs.sort((a, b) => a - b);
      for (const q of [0.5, 0.61, 0.75, 0.9, 0.925, 0.95, 0.99, 0.999]) {
        const exact = exactQuantile(xs, q);
        const got = h.quantile(q)!;
        if (exact === 0) expect(got).toBe(0);
        else expect(Math.abs(got - exact) / exact).toBeLessThanOrEqual(RELATIVE_ACCURACY + 1e-12);
      }
    }
  });

  it('uses the nearest-rank definition without floating-point drift', () => {
    expect(nearestRank(0.9, 10)).toBe(9);
    expect(nearestRank(0.9, 30)).toBe(27);
    expect(nearestRank(0.95, 30)).toBe(29);
    expect(nearestRank(0.95, 1)).toBe(1);
    expect(nearestRank(0, 5)).toBe(1);
    expect(nearestRank(1, 5)).toBe(5);
  });

  it('keeps zero exact and clamps values outside the range into the edge bins', () => {
    const h = new DenseLogHistogram();
    expect(h.quantile(0.9)).toBeNull();
    h.addToBin(null, 3);
    expect(h.quantile(0.9)).toBe(0);
    h.addToBin(binIndex(1e12), 1);
    h.addToBin(binIndex(1e-9), 1);
    expect(h.total).toBe(5);
    expect(Math.abs(h.quantile(1)! - MAX_VALUE) / MAX_VALUE).toBeLessThanOrEqual(RELATIVE_ACCURACY);
    expect(binIndex(1e-9)).toBe(binIndex(MIN_VALUE));
    expect(BIN_COUNT).toBeLessThan(1_200);
    expect(() => binIndex(0)).toThrow(RangeError);
    expect(() => binIndex(NaN)).toThrow(RangeError);
  });
});
