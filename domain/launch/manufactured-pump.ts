/**
 * The manufactured-pump fingerprint over a mint's early price path. The public definition reads 1-minute bars over
 * 8 bars: at least 90% positive returns, a coefficient of variation of the returns below 0.5, and an R² of the
 * log-price against time of at least 0.98 — a climb too steady to be organic demand, the shape of one operator
 * buying on a schedule. Our scores are taken at 30 s and 60 s and the composite signal judges mints under 120 s, so
 * 8 one-minute bars would arrive after every decision that could use them. We keep the 8 bars and the three
 * thresholds and shrink the bar to PUMP_BAR_S = 5 s: the verdict covers the first 40 s of the curve, is known from
 * then on (null before: the path is incomplete), and never changes afterwards. Shorter bars make a flat bar (no
 * trade in 5 s) likelier; a flat bar is not a positive return, so a thinly traded mint is not a manufactured pump.
 */
export const PUMP_BAR_S = 5;
export const PUMP_BARS = 8;
export const PUMP_MIN_POSITIVE_SHARE = 0.9;
export const PUMP_MAX_RETURN_CV = 0.5;
export const PUMP_MIN_LOG_PRICE_R2 = 0.98;
/** The age from which the verdict is known. */
export const PUMP_PATH_S = PUMP_BAR_S * PUMP_BARS;

export type PumpPath = {
  /** The curve price at creation: the open of the first bar. */
  launchPrice: number;
  /** Per bar, the price after its last trade; undefined for a bar without trades (the previous close carries). */
  closes: readonly (number | undefined)[];
};

/** The bar a trade at `atMs` falls in, or null past the path; a trade stamped before the creation counts in bar 0. */
export function pumpBarOf(atMs: number, createdAtMs: number): number | null {
  const i = Math.floor(Math.max(0, atMs - createdAtMs) / (PUMP_BAR_S * 1000));
  return i < PUMP_BARS ? i : null;
}

/** true / false once the mint is PUMP_PATH_S old; null before. */
export function manufacturedPump(path: PumpPath, ageS: number): boolean | null {
  if (ageS < PUMP_PATH_S || !(path.launchPrice > 0)) return null;
  const prices = [path.launchPrice];
  const returns: number[] = [];
  let last = path.launchPrice;
  for (let i = 0; i < PUMP_BARS; i++) {
    const close = path.closes[i] ?? last;
    returns.push(close / last - 1);
    prices.push(close);
    last = close;
  }
  const positive = returns.filter((r) => r > 0).length / returns.length;
  if (positive < PUMP_MIN_POSITIVE_SHARE) return false;
  const mean = returns.reduce((s, r) => s + r, 0) / returns.length;
  const sd = Math.sqrt(returns.reduce((s, r) => s + (r - mean) ** 2, 0) / returns.length);
  if (!(mean > 0) || sd / mean >= PUMP_MAX_RETURN_CV) return false;
  return logPriceR2(prices) >= PUMP_MIN_LOG_PRICE_R2;
}

/** R² of the least-squares line of log-price against the bar index. */
function logPriceR2(prices: readonly number[]): number {
  const y = prices.map(Math.log);
  const n = y.length;
  const mx = (n - 1) / 2;
  const my = y.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  y.forEach((v, x) => {
    sxy += (x - mx) * (v - my);
    sxx += (x - mx) ** 2;
    syy += (v - my) ** 2;
  });
  return syy === 0 ? 0 : (sxy * sxy) / (sxx * syy);
}
