import { pauseEvery, runSteps, type Steps } from './stepwise';

/**
 * L2-regularised logistic regression by Newton's method (IRLS) on z-scored features: the learned metric's source
 * of candidate feature weights (learned-knn-model.ts) and the backtest's reference model. The intercept is not
 * penalised. Deterministic: the same rows give the same coefficients.
 *
 * Why Newton: a few dozen features and up to a few hundred thousand rows make each step one pass over the data
 * plus a small d×d solve, and it converges in under ten steps where gradient descent needs a learning rate.
 */
export type LogisticModel = {
  /** Mean and std each feature was z-scored with (std 0 → 1). */
  mean: readonly number[];
  std: readonly number[];
  /** Coefficients on the z-scored features. */
  coef: readonly number[];
  intercept: number;
  predict(x: readonly number[]): number;
  /** The linear score before the sigmoid: log(p / (1 − p)), exact where p itself rounds to 0 or 1. */
  logOdds(x: readonly number[]): number;
};

export type LogisticOptions = {
  /** Penalty λ on ½‖coef‖², in units of rows (λ = 1 is one pseudo-row's worth). */
  l2?: number;
  maxIter?: number;
};

export const DEFAULT_LOGISTIC_L2 = 1;

export function fitLogistic(xs: readonly (readonly number[])[], ys: readonly boolean[], opts: LogisticOptions = {}): LogisticModel {
  return runSteps(fitLogisticSteps(xs, ys, opts));
}

export function* fitLogisticSteps(xs: readonly (readonly number[])[], ys: readonly boolean[], opts: LogisticOptions = {}): Steps<LogisticModel> {
  const n = xs.length;
  if (ys.length !== n) throw new RangeError(`${n} rows but ${ys.length} labels`);
  const d = n === 0 ? 0 : xs[0]!.length;
  const l2 = opts.l2 ?? DEFAULT_LOGISTIC_L2;
  const mean = new Array<number>(d).fill(0);
  const std = new Array<number>(d).fill(1);
  for (const x of xs) for (let j = 0; j < d; j++) mean[j]! += x[j]! / n;
  const ss = new Array<number>(d).fill(0);
  for (const x of xs) for (let j = 0; j < d; j++) ss[j]! += (x[j]! - mean[j]!) ** 2;
  for (let j = 0; j < d; j++) {
    const s = Math.sqrt(ss[j]! / Math.max(1, n));
    std[j] = s > 1e-12 && Number.isFinite(s) ? s : 1;
  }
  // Parameters: [intercept, coef...]; the design row is [1, z...].
  const p = d + 1;
  const beta = new Array<number>(p).fill(0);
  const pos = ys.filter(Boolean).length;
  beta[0] = Math.log((pos + 0.5) / (n - pos + 0.5));
  const z = new Float64Array(p);
  const design = (i: number) => {
    z[0] = 1;
    for (let j = 0; j < d; j++) z[j + 1] = (xs[i]![j]! - mean[j]!) / std[j]!;
    return z;
  };
  /** Penalised negative log-likelihood at `b`. */
  const objective = function* (b: readonly number[]): Steps<number> {
    let f = 0;
    for (let i = 0; i < n; i++) {
      const zi = design(i);
      let eta = 0;
      for (let j = 0; j < p; j++) eta += b[j]! * zi[j]!;
      // log(1 + e^eta) − y·eta, computed without overflow.
      f += (eta > 0 ? eta + Math.log1p(Math.exp(-eta)) : Math.log1p(Math.exp(eta))) - (ys[i] ? eta : 0);
      if (pauseEvery(i, LOGISTIC_PIECE)) yield;
    }
    for (let j = 1; j < p; j++) f += (l2 / 2) * b[j]! ** 2;
    return f;
  };
  let current = yield* objective(beta);
  for (let iter = 0; iter < (opts.maxIter ?? 25); iter++) {
    const grad = new Array<number>(p).fill(0);
    const hess = Array.from({ length: p }, () => new Array<number>(p).fill(0));
    for (let i = 0; i < n; i++) {
      design(i);
      let eta = 0;
      for (let j = 0; j < p; j++) eta += beta[j]! * z[j]!;
      const mu = sigmoid(eta);
      const w = Math.max(mu * (1 - mu), 1e-10);
      const r = (ys[i] ? 1 : 0) - mu;
      for (let a = 0; a < p; a++) {
        grad[a]! += r * z[a]!;
        const wa = w * z[a]!;
        const row = hess[a]!;
        for (let b = 0; b <= a; b++) row[b]! += wa * z[b]!;
      }
      if (pauseEvery(i, LOGISTIC_PIECE)) yield;
    }
    for (let a = 1; a < p; a++) {
      grad[a]! -= l2 * beta[a]!;
      hess[a]![a]! += l2;
    }
    hess[0]![0]! += 1e-9;
    for (let a = 0; a < p; a++) for (let b = a + 1; b < p; b++) hess[a]![b] = hess[b]![a]!;
    const step = solveSpd(hess, grad);
    // Damped Newton: halve the step until the objective does not rise (rare positives and heavy-tailed features
    // can send a full step far past the optimum).
    let t = 1;
    let next = beta.map((b, a) => b + step[a]!);
    let value = yield* objective(next);
    while (!(value <= current) && t > 1e-6) {
      t /= 2;
      next = beta.map((b, a) => b + t * step[a]!);
      value = yield* objective(next);
    }
    if (!(value <= current)) break;
    const change = Math.max(...next.map((b, a) => Math.abs(b - beta[a]!)));
    beta.splice(0, p, ...next);
    current = value;
    if (change < 1e-8) break;
  }
  const coef = beta.slice(1);
  const intercept = beta[0]!;
  const logOdds = (x: readonly number[]) => {
    let eta = intercept;
    for (let j = 0; j < d; j++) eta += coef[j]! * ((x[j]! - mean[j]!) / std[j]!);
    return eta;
  };
  return { mean, std, coef, intercept, logOdds, predict: (x) => sigmoid(logOdds(x)) };
}

const sigmoid = (t: number) => (t >= 0 ? 1 / (1 + Math.exp(-t)) : Math.exp(t) / (1 + Math.exp(t)));

/** Solves A x = b for a symmetric positive-definite A by Cholesky. */
function solveSpd(a: number[][], b: readonly number[]): number[] {
  const n = b.length;
  const l = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i]![j]!;
      for (let k = 0; k < j; k++) s -= l[i]![k]! * l[j]![k]!;
      if (i === j) l[i]![i] = Math.sqrt(Math.max(s, 1e-12));
      else l[i]![j] = s / l[j]![j]!;
    }
  }
  const y = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[i]![k]! * y[k]!;
    y[i] = s / l[i]![i]!;
  }
  const x = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i]!;
    for (let k = i + 1; k < n; k++) s -= l[k]![i]! * x[k]!;
    x[i] = s / l[i]![i]!;
  }
  return x;
}

/** Rows per uninterrupted piece of a pass: a Newton pass costs ~(d + 1)² per row, ~10 ms per 2,048 rows at 23 features. */
const LOGISTIC_PIECE = 1 << 11;
