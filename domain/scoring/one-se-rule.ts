/**
 * The one-standard-error rule (Breiman et al. 1984; Hastie, Tibshirani & Friedman, ESL §7.10) on paired held-out
 * losses: candidates come in a fixed order of complexity, simplest first, and a later one replaces the incumbent only
 * when its mean loss is lower by more than one standard error of the per-row difference. With a few dozen positives
 * among the held-out rows, the lowest of many mean losses is mostly the luckiest; the paired difference cancels what
 * every candidate shares (a row that is hard for all of them), so a real improvement still clears the bar.
 */

/** Each held-out row's loss under one candidate, in the same row order for every candidate. */
export type RowLosses = ArrayLike<number>;

/** Weighted mean of `challenger − incumbent` per row and its standard error. */
export type PairedDifference = { mean: number; se: number };

/**
 * The weighted mean of the per-row differences `challenger[i] − incumbent[i]` and its standard error. With sampling
 * weights wᵢ (a stratified sample: each row stands for wᵢ rows of the slice) the mean is Σwᵢdᵢ / Σwᵢ and its variance
 * the ratio estimator's, n/(n−1) · Σwᵢ²(dᵢ − d̄)² / (Σwᵢ)², which with equal weights is the textbook s²/n.
 */
export function pairedDifference(incumbent: RowLosses, challenger: RowLosses, weights?: ArrayLike<number>): PairedDifference {
  const n = incumbent.length;
  if (challenger.length !== n || (weights && weights.length !== n)) throw new RangeError('paired losses need the same rows');
  if (n === 0) return { mean: 0, se: 0 };
  let total = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const w = weights ? weights[i]! : 1;
    total += w;
    sum += w * (challenger[i]! - incumbent[i]!);
  }
  const mean = sum / total;
  if (n < 2) return { mean, se: Infinity };
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const w = weights ? weights[i]! : 1;
    ss += (w * (challenger[i]! - incumbent[i]! - mean)) ** 2;
  }
  return { mean, se: Math.sqrt(((n / (n - 1)) * ss) / total ** 2) };
}

/** True when `challenger`'s mean loss is below `incumbent`'s by more than one standard error of the paired difference. */
export function clearsOneSe(incumbent: RowLosses, challenger: RowLosses, weights?: ArrayLike<number>): boolean {
  const { mean, se } = pairedDifference(incumbent, challenger, weights);
  return mean < -se;
}

/**
 * Walks `candidates` in their order (simplest first) and returns the index of the last one that replaced its
 * incumbent: the first candidate is kept unless a later one clears one standard error against whichever candidate
 * holds the place at that moment.
 */
export function chooseByOneSe(candidates: readonly RowLosses[], weights?: ArrayLike<number>): number {
  if (candidates.length === 0) throw new RangeError('nothing to choose from');
  let chosen = 0;
  for (let c = 1; c < candidates.length; c++) if (clearsOneSe(candidates[chosen]!, candidates[c]!, weights)) chosen = c;
  return chosen;
}
