import { RUG_FEATURE_KEYS, rugVector, type RugFeatures } from './rug-features';
import type { ScoreAge } from './score-age';
import { runSteps, type Steps } from './stepwise';
import { fitBinaryKnnModelSteps, type BinaryKnnModel, type WarmingModelOptions } from './warming-knn-model';

/**
 * rug_prob v1: k-NN over resolved mints observed at the same age, labelled by the versioned rug definition
 * (outcome-labels.ts, rug-v2: insiders sold at least half of what they bought into a pump of at least 1.25×, and
 * the price gave back at least 70% of its gain). Features
 * are the rug features (rug-features.ts), z-scored Euclidean, k = 50, calibrated on a later time slice and
 * shrunk toward the corpus rug rate like grad_prob. Null (warming) until MIN_RUG_CORPUS labelled rows exist.
 */
export const RUG_MODEL_NAME = 'rug-knn-v1';
export const MIN_RUG_CORPUS = 200;

export type RugCorpusRow = { mint: string; ageBucket: ScoreAge; features: RugFeatures; rugged: boolean; observedAt: Date };
export type RugModel = BinaryKnnModel<RugFeatures>;

export function fitRugModelSteps(corpus: readonly RugCorpusRow[], opts: WarmingModelOptions): Steps<RugModel> {
  return fitBinaryKnnModelSteps(corpus, opts, {
    name: RUG_MODEL_NAME,
    minSamples: MIN_RUG_CORPUS,
    featureKeys: RUG_FEATURE_KEYS,
    vector: rugVector,
    label: 'rugged',
    labelOf: (r) => r.rugged,
  });
}

export const fitRugModel = (corpus: readonly RugCorpusRow[], opts: WarmingModelOptions): RugModel => runSteps(fitRugModelSteps(corpus, opts));
