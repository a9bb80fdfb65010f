import { FEATURE_VECTOR_KEYS, toVector, type MintFeatures } from './mint-features';
import type { ScoreAge } from './score-age';
import { runSteps, type Steps } from './stepwise';
import { fitBinaryKnnModelSteps, type BinaryKnnModel, type WarmingModelOptions } from './warming-knn-model';

/**
 * post_grad_survival v1: if this mint graduates, the probability that its DEX price holds at least 80% of
 * the graduation price for 30 minutes (outcome-labels.ts `sustained30m`). k-NN over graduated mints observed
 * at the same age with a known 30-minute outcome, on grad_prob's six features, calibrated like the others.
 *
 * Scores are logged with every prediction but published only once the auto-lift gate
 * (domain/accuracy/survival-gate.ts) has seen them calibrated on resolved graduates, forward.
 */
export const SURVIVAL_MODEL_NAME = 'survival-knn-v1';
/** Graduates are scarce (well under 1% of launches); the gate, not this minimum, decides publication. */
export const MIN_SURVIVAL_CORPUS = 30;

export type SurvivalCorpusRow = { mint: string; ageBucket: ScoreAge; features: MintFeatures; sustained: boolean; observedAt: Date };
export type SurvivalModel = BinaryKnnModel<MintFeatures>;

export function fitSurvivalModelSteps(corpus: readonly SurvivalCorpusRow[], opts: WarmingModelOptions): Steps<SurvivalModel> {
  return fitBinaryKnnModelSteps(corpus, opts, {
    name: SURVIVAL_MODEL_NAME,
    minSamples: MIN_SURVIVAL_CORPUS,
    featureKeys: FEATURE_VECTOR_KEYS,
    vector: toVector,
    label: 'sustained_30m',
    labelOf: (r) => r.sustained,
  });
}

export const fitSurvivalModel = (corpus: readonly SurvivalCorpusRow[], opts: WarmingModelOptions): SurvivalModel =>
  runSteps(fitSurvivalModelSteps(corpus, opts));
