import type { ScoreAge } from '../scoring/grad-prob-model';
import type { RunnerOdds } from '../scoring/runner-model';
import { knnV1, type BacktestRow, type ForwardModelDef, type ForwardScorer } from './forward-models';

/**
 * Walk-forward evaluation of grad_prob, the way production would have run it: time is cut into windows of
 * the refit period; at the start t of each window the model is fitted from the rows whose label was known
 * by t (resolved at or before t, the newest `corpusLimit` by observation time, as the corpus store selects
 * them), and scores every row observed inside the window. Inside the fit, the calibrator is fitted on the
 * corpus' later slice, as in production. Nothing predicted was in, or resolved before, its model's corpus.
 * The runner-odds model is fitted from the same rows (their from-call peak multiples) alongside grad_prob,
 * as the worker's scorer does. Several models (forward-models.ts) can be walked in one pass: each is fitted from
 * the same corpus at the same moments and scores the same rows, so their figures compare like for like.
 */
export type { BacktestRow } from './forward-models';

export type WalkForwardOptions = {
  ageBucket: ScoreAge;
  /** Window length: the model is refitted at the start of each (production: MODEL_REFIT_EVERY_S). */
  refitEveryS: number;
  /** Newest resolved rows a fit uses (production: CORPUS_LIMIT). */
  corpusLimit: number;
  /** Windows whose corpus is smaller predict only the prior; they are counted, not scored. */
  minCorpus?: number;
  /** Also fit and score runner odds (default true); only for the default model list. */
  runnerOdds?: boolean;
  /** The models to walk (default knn-v1); `predictions` are the first one's. */
  models?: readonly ForwardModelDef[];
};

export type ForwardPrediction = {
  mint: string;
  observedAt: Date;
  prob: number;
  raw: number;
  graduated: boolean;
  /** When the label became known (the promotion replay counts a row only once resolved). */
  resolvedAt: Date;
  /** The refit moment (window start) of the model that made the prediction. */
  fittedAt: Date;
  peakMultFromCall: number;
  modelVersion: string;
  corpusSize: number;
  /** Null while the runner model is warming (or not fitted). */
  runnerOdds: RunnerOdds | null;
};

export type WalkForwardResult = {
  predictions: ForwardPrediction[];
  /** Every model's predictions by name, the first model's included (same array as `predictions`). */
  byModel: Map<string, ForwardPrediction[]>;
  /** Rows observed while the known corpus was below `minCorpus` (the warm-up before labels resolve). */
  warmup: number;
  /** Models fitted (a window with no new resolved rows reuses the previous one). */
  fits: number;
  /** Per model, what each fit chose (ForwardScorer.choice), in fit order; empty for models that do not say. */
  choices: Map<string, string[]>;
};

export type WalkForwardProgress = { done: number; total: number };

export function* walkForward(rows: readonly BacktestRow[], opts: WalkForwardOptions): Generator<WalkForwardProgress, WalkForwardResult, void> {
  const stepMs = opts.refitEveryS * 1000;
  const minCorpus = opts.minCorpus ?? 1;
  if (!(stepMs > 0)) throw new RangeError(`refitEveryS must be > 0, got ${opts.refitEveryS}`);
  if (!(Number.isInteger(opts.corpusLimit) && opts.corpusLimit > 0)) throw new RangeError(`corpusLimit must be a positive integer, got ${opts.corpusLimit}`);
  for (const r of rows) if (r.ageBucket !== opts.ageBucket) throw new RangeError(`row ${r.mint} is at age ${r.ageBucket}, not ${opts.ageBucket}`);

  const byObserved = [...rows].sort((a, b) => a.observedAt.getTime() - b.observedAt.getTime() || cmp(a.mint, b.mint));
  const byResolved = [...rows].sort((a, b) => a.resolvedAt.getTime() - b.resolvedAt.getTime() || cmp(a.mint, b.mint));
  const models = opts.models ?? [knnV1({ runnerOdds: opts.runnerOdds })];
  if (models.length === 0) throw new RangeError('walk-forward needs at least one model');
  const byModel = new Map(models.map((m) => [m.name, [] as ForwardPrediction[]]));
  if (byModel.size !== models.length) throw new RangeError('model names must be distinct');
  const result: WalkForwardResult = {
    predictions: byModel.get(models[0]!.name)!,
    byModel,
    warmup: 0,
    fits: 0,
    choices: new Map(models.map((m) => [m.name, []])),
  };
  if (byObserved.length === 0) return result;

  const t0 = byObserved[0]!.observedAt.getTime();
  const total = Math.floor((byObserved[byObserved.length - 1]!.observedAt.getTime() - t0) / stepMs) + 1;
  let next = 0;
  let known = 0;
  let fitted: ForwardScorer[] = [];
  let modelKnown = -1;
  for (let w = 0; w < total; w++) {
    const start = t0 + w * stepMs;
    const end = start + stepMs;
    const window: BacktestRow[] = [];
    while (next < byObserved.length && byObserved[next]!.observedAt.getTime() < end) window.push(byObserved[next++]!);
    while (known < byResolved.length && byResolved[known]!.resolvedAt.getTime() <= start) known++;
    if (window.length > 0) {
      if (known < minCorpus) result.warmup += window.length;
      else {
        if (modelKnown !== known) {
          const corpus = corpusAt(byResolved, known, opts.corpusLimit);
          fitted = models.map((m) => m.fit(corpus, opts.ageBucket));
          fitted.forEach((f, i) => f.choice !== undefined && result.choices.get(models[i]!.name)!.push(f.choice));
          modelKnown = known;
          result.fits++;
        }
        for (const [i, m] of models.entries()) {
          const scorer = fitted[i]!;
          const out = byModel.get(m.name)!;
          for (const r of window) {
            const s = scorer.score(r);
            out.push({
              mint: r.mint,
              observedAt: r.observedAt,
              prob: s.prob,
              raw: s.raw,
              graduated: r.graduated,
              resolvedAt: r.resolvedAt,
              fittedAt: new Date(start),
              peakMultFromCall: r.peakMultFromCall,
              modelVersion: scorer.version,
              corpusSize: scorer.corpusSize,
              runnerOdds: s.runnerOdds,
            });
          }
        }
      }
    }
    yield { done: w + 1, total };
  }
  return result;
}

/** The first `known` rows by resolution time, cut to the newest `limit` by observation time. */
function corpusAt(byResolved: readonly BacktestRow[], known: number, limit: number): BacktestRow[] {
  const resolved = byResolved.slice(0, known);
  if (resolved.length <= limit) return resolved;
  return resolved.sort((a, b) => b.observedAt.getTime() - a.observedAt.getTime() || cmp(a.mint, b.mint)).slice(0, limit);
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
