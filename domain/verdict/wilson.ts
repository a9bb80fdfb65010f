/**
 * Wilson score interval for a binomial proportion (Wilson 1927; Newcombe 1998, method 3). Unlike the normal
 * approximation it stays inside [0, 1] and behaves at k = 0 and k = n, which is where tier rates of rare 5×
 * runners live. One-sided bounds use the one-sided z (1.6449 for 95%); a two-sided 95% interval uses 1.96.
 *
 * Five lines of arithmetic, so no dependency: the npm packages for it are single-author and unmaintained, and a
 * verdict must not change with one.
 */
export const Z_ONE_SIDED_95 = 1.6448536269514722;
export const Z_TWO_SIDED_95 = 1.959963984540054;

export type WilsonInterval = { lower: number; upper: number };

export function wilsonInterval(successes: number, n: number, z: number): WilsonInterval | null {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer, got ${n}`);
  if (!Number.isInteger(successes) || successes < 0 || successes > n) throw new RangeError(`successes must be an integer in [0, n], got ${successes} of ${n}`);
  if (!(z > 0 && Number.isFinite(z))) throw new RangeError(`z must be a finite positive number, got ${z}`);
  if (n === 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = p + z2 / (2 * n);
  const half = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // Clamped: at k = 0 (k = n) the bound is 0 (1) exactly in reals, a rounding error either side in floats.
  return {
    lower: successes === 0 ? 0 : Math.max(0, (centre - half) / denominator),
    upper: successes === n ? 1 : Math.min(1, (centre + half) / denominator),
  };
}

/** One-sided lower bound at confidence given by z; null for n = 0. */
export const wilsonLowerBound = (successes: number, n: number, z: number = Z_ONE_SIDED_95) => wilsonInterval(successes, n, z)?.lower ?? null;

export const wilsonUpperBound = (successes: number, n: number, z: number = Z_ONE_SIDED_95) => wilsonInterval(successes, n, z)?.upper ?? null;
