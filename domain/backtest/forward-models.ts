import { fitGradProbModel, type CorpusRow, type ScoreAge } from '../scoring/grad-prob-model';
import { gradModelFitter } from '../scoring/grad-model-versions';
import { fitGradProbV2Model, hasLaunchFeatures, launchFeaturesOf } from '../scoring/grad-prob-v2-model';
import { LAUNCH_FEATURE_KEYS, launchVector, type LaunchFeatureKey } from '../scoring/launch-features';
import { fitLogistic } from '../scoring/logistic-regression';
import { fitRunnerModel, type RunnerCorpusRow, type RunnerOdds } from '../scoring/runner-model';
import { fitRunnerV2Model } from '../scoring/runner-v2-model';
import { runSteps } from '../scoring/stepwise';

/**
 * The models a walk-forward compares, each fitted from the same corpus at the same moments: the published
 * families (knn-v1, knn-v2) and two references a reader can check the k-NN against — the empirical graduation
 * rate by virtual-SOL band, and a regularised logistic regression on the same launch features as knn-v2. A
 * reference that ranks as well as the published score says the k-NN has not earned its place.
 */
/** A resolved observation with the peak multiple after it (runner labels), as the walk-forward replays it. */
export type BacktestRow = CorpusRow & { peakMultFromCall: number };

export type ForwardScore = { prob: number; raw: number; runnerOdds: RunnerOdds | null };

export interface ForwardScorer {
  readonly version: string;
  readonly corpusSize: number;
  /** What the fit chose, for the report's tally (knn-v2: candidate, k, β, axis weight). */
  readonly choice?: string;
  score(r: BacktestRow): ForwardScore;
}

export type ForwardModelDef = { name: string; fit(corpus: readonly BacktestRow[], ageBucket: ScoreAge): ForwardScorer };

const runnerRows = (corpus: readonly BacktestRow[]): RunnerCorpusRow[] =>
  corpus.map((r) => ({ mint: r.mint, ageBucket: r.ageBucket, features: r.features, peakMult: r.peakMultFromCall, observedAt: r.observedAt }));

type GradFit = { version: string; corpusSize: number; choice?: string; score(f: BacktestRow['features']): { prob: number; raw: number } };
type RunnerFit = { score(f: BacktestRow['features']): RunnerOdds | null };

/** A published family as the walk sees it: its grad_prob fit and, unless turned off, its runner odds from the same corpus. */
function family(
  name: string,
  runnerOdds: boolean,
  fitGrad: (corpus: readonly BacktestRow[], ageBucket: ScoreAge) => GradFit,
  fitRunner: (rows: RunnerCorpusRow[], ageBucket: ScoreAge) => RunnerFit,
): ForwardModelDef {
  return {
    name,
    fit(corpus, ageBucket) {
      const grad = fitGrad(corpus, ageBucket);
      const runner = runnerOdds ? fitRunner(runnerRows(corpus), ageBucket) : null;
      return {
        version: grad.version,
        corpusSize: grad.corpusSize,
        choice: grad.choice,
        score(r) {
          const s = grad.score(r.features);
          return { prob: s.prob, raw: s.raw, runnerOdds: runner ? runner.score(r.features) : null };
        },
      };
    },
  };
}

export const knnV1 = (o: { runnerOdds?: boolean } = {}): ForwardModelDef =>
  family(
    'knn-v1',
    o.runnerOdds !== false,
    (corpus, ageBucket) => fitGradProbModel(corpus, { ageBucket }),
    (rows, ageBucket) => fitRunnerModel(rows, { ageBucket }),
  );

/**
 * knn-v2; `exclude` keeps features out of the metric, `logisticPriorGrid: []` takes the logistic prior away and
 * `logisticAxisGrid: []` the logistic axis of the metric (the ablation table), `name` tells such runs apart.
 */
export const knnV2 = (
  o: {
    runnerOdds?: boolean;
    exclude?: readonly LaunchFeatureKey[];
    logisticPriorGrid?: readonly number[];
    logisticAxisGrid?: readonly number[];
    name?: string;
  } = {},
): ForwardModelDef =>
  family(
    o.name ?? 'knn-v2',
    o.runnerOdds !== false,
    (corpus, ageBucket) => {
      const m = fitGradProbV2Model(corpus, { ageBucket, exclude: o.exclude, logisticPriorGrid: o.logisticPriorGrid, logisticAxisGrid: o.logisticAxisGrid });
      const c = m.metric;
      return { ...m, choice: `${c.candidate}, k ${c.k}, β ${c.logisticPriorWeight ?? 0}, axis ${c.logisticAxisWeight ?? 0}` };
    },
    (rows, ageBucket) => fitRunnerV2Model(rows, { ageBucket }),
  );

/** Any registered grad_prob version by name (grad-model-versions.ts), grad_prob only: a configured challenger the promotion replay needs. */
export const registeredVersion = (name: string): ForwardModelDef => {
  const fit = gradModelFitter(name);
  return {
    name,
    fit(corpus, ageBucket) {
      const m = runSteps(fit(corpus, { ageBucket }));
      return {
        version: m.version,
        corpusSize: m.corpusSize,
        score(r) {
          const s = m.score(r.features);
          return { prob: s.prob, raw: s.raw, runnerOdds: null };
        },
      };
    },
  };
};

/** Pseudo-observations of the corpus base rate behind each band's rate (as calibration's prior strength). */
const BAND_PRIOR = 10;
/** Bands by quantile of the corpus' vSol, so each holds about the same number of rows whatever the market. */
const VSOL_BANDS = 20;

export const vSolBandReference: ForwardModelDef = {
  name: 'ref: vSol band',
  fit(corpus) {
    const v = corpus.map((r) => r.features.vSolSol).sort((a, b) => a - b);
    const edges = [
      ...new Set(Array.from({ length: VSOL_BANDS - 1 }, (_, i) => v[Math.floor(((i + 1) * v.length) / VSOL_BANDS)]!).filter((x) => x !== undefined)),
    ];
    const band = (x: number) => {
      let b = 0;
      while (b < edges.length && x >= edges[b]!) b++;
      return b;
    };
    const n = new Array<number>(edges.length + 1).fill(0);
    const g = new Array<number>(edges.length + 1).fill(0);
    for (const r of corpus) {
      const b = band(r.features.vSolSol);
      n[b]!++;
      if (r.graduated) g[b]!++;
    }
    const base = (corpus.filter((r) => r.graduated).length + 0.5) / (corpus.length + 1);
    return {
      version: `vsol-band@${corpus.length}`,
      corpusSize: corpus.length,
      score(r) {
        const b = band(r.features.vSolSol);
        const prob = (g[b]! + BAND_PRIOR * base) / (n[b]! + BAND_PRIOR);
        return { prob, raw: prob, runnerOdds: null };
      },
    };
  },
};

export const logisticReference: ForwardModelDef = {
  name: 'ref: logistic',
  fit(corpus) {
    const rows = corpus.filter(hasLaunchFeatures);
    const lr = fitLogistic(
      rows.map((r) => launchVector(launchFeaturesOf(r.features))),
      rows.map((r) => r.graduated),
    );
    return {
      version: `logistic-l2@${rows.length}`,
      corpusSize: rows.length,
      score(r) {
        const prob = lr.predict(launchVector(launchFeaturesOf(r.features)));
        return { prob, raw: prob, runnerOdds: null };
      },
    };
  },
};

/** Feature groups the ablation table drops one at a time from knn-v2 (the curve position is never dropped). */
export const ABLATION_GROUPS: readonly { name: string; keys: readonly LaunchFeatureKey[] }[] = [
  { name: 'liquidity velocity', keys: ['logSwaps', 'solPerSwap', 'reachFrac'] },
  { name: 'recent acceleration', keys: ['accelBuys', 'accelSolSol'] },
  { name: 'buyer breadth, repeat traders', keys: ['logBuyers', 'repeatShare'] },
  { name: 'first 10/20 buyers', keys: ['first10Share', 'first20Share'] },
  { name: 'creation-slot bundle', keys: ['bundleShare', 'bundleCount'] },
  { name: 'snipers', keys: ['sniperCount', 'sniperSoldShare'] },
  { name: 'dev buy, dev sold', keys: ['devBuySol', 'devSold'] },
  { name: 'fresh wallets', keys: ['freshShare'] },
  { name: 'smart money', keys: ['smartCount', 'smartSolIn'] },
  { name: 'creator record', keys: ['creatorLogLaunches', 'creatorGradRate', 'creatorRugRate'] },
  { name: 'sell pressure', keys: ['sellSolShare'] },
];

// Every launch feature but the curve position sits in exactly one group.
const grouped = ABLATION_GROUPS.flatMap((g) => g.keys);
if (grouped.length + 1 !== LAUNCH_FEATURE_KEYS.length || !LAUNCH_FEATURE_KEYS.every((k) => k === 'vSolSol' || grouped.includes(k)))
  throw new Error('ablation groups out of step with LAUNCH_FEATURE_KEYS');

/** One knn-v2 per feature group left out, one without the logistic prior (the plain neighbour vote), one without the logistic axis. */
export const ablations = (): ForwardModelDef[] => [
  ...ABLATION_GROUPS.map((g) => knnV2({ runnerOdds: false, exclude: g.keys, name: `knn-v2 − ${g.name}` })),
  knnV2({ runnerOdds: false, logisticPriorGrid: [], name: 'knn-v2 − logistic prior' }),
  knnV2({ runnerOdds: false, logisticAxisGrid: [], name: 'knn-v2 − logistic axis' }),
];
