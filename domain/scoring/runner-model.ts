import { FEATURE_VECTOR_KEYS, toVector, type MintFeatures } from './mint-features';
import type { ScoreAge } from './score-age';
import { runSteps, type Steps } from './stepwise';
import { fitWarmingKnnModelSteps, type WarmingKnnModel, type WarmingModelOptions } from './warming-knn-model';

/**
 * runner_prob_{N}x_from_now v1: the probability that the price reaches N × the price at scoring time, within
 * the 24 h horizon. Never from launch: the anchor service's from-launch odds read far better than what a
 * caller could still catch (from-call ≥5× was 0.7%).
 *
 * Neighbours are resolved mints observed at the same age with the same six features as grad_prob; a
 * neighbour counts for tier N when its peak price after that age reached N × its own price at that age
 * (`peak_mult_24h` of its prediction row, stored at resolution). Each tier is calibrated on the later slice
 * like grad_prob and shrunk toward the tier's base rate; with a small slice the shrunk neighbour rate is used.
 * Reaching 10× implies reaching 5×, so the published odds are made non-increasing across tiers (a running
 * minimum from 2× up): separately calibrated tiers can otherwise cross where samples are thin.
 */
export const RUNNER_TIERS = [2, 3, 5, 10, 20] as const;
export type RunnerTier = (typeof RUNNER_TIERS)[number];
export type RunnerTierKey = `${RunnerTier}x`;
export type RunnerOdds = Record<RunnerTierKey, number>;

export const RUNNER_MODEL_NAME = 'runner-knn-v1';
/** Resolved rows at the age before odds are published. */
export const MIN_RUNNER_CORPUS = 200;

export const tierKey = (t: RunnerTier): RunnerTierKey => `${t}x`;

export type RunnerCorpusRow = {
  mint: string;
  ageBucket: ScoreAge;
  features: MintFeatures;
  /** Peak price within the horizon after the observation ÷ the price at the observation. */
  peakMult: number;
  observedAt: Date;
};

export interface RunnerModel extends Omit<WarmingKnnModel, 'score'> {
  /** Null while warming. */
  score(features: MintFeatures): RunnerOdds | null;
}

export type RunnerModelOptions = WarmingModelOptions;

export function* fitRunnerModelSteps(corpus: readonly RunnerCorpusRow[], opts: RunnerModelOptions): Steps<RunnerModel> {
  for (const r of corpus) {
    if (!(Number.isFinite(r.peakMult) && r.peakMult > 0)) throw new RangeError(`row ${r.mint}: peak multiple must be a positive number, got ${r.peakMult}`);
  }
  const model = yield* fitWarmingKnnModelSteps(corpus, {
    ...opts,
    name: RUNNER_MODEL_NAME,
    minSamples: opts.minSamples ?? MIN_RUNNER_CORPUS,
    dims: FEATURE_VECTOR_KEYS.length,
    vectorOf: (r) => toVector(r.features),
    labels: RUNNER_TIERS.map(tierKey),
    labelsOf: (r) => RUNNER_TIERS.map((t) => r.peakMult >= t),
    rowText: (r) => `${r.mint};${r.peakMult};${r.observedAt.getTime()};${toVector(r.features).join(',')}`,
  });
  return {
    ...model,
    score(features) {
      const scores = model.score(toVector(features));
      return scores ? nonIncreasingOdds(scores.map((x) => x.prob)) : null;
    },
  };
}

/** Per-tier probabilities (RUNNER_TIERS order) as published odds: a running minimum from 2× up. */
export function nonIncreasingOdds(probs: readonly number[]): RunnerOdds {
  let cap = 1;
  const odds = {} as RunnerOdds;
  RUNNER_TIERS.forEach((t, i) => {
    cap = Math.min(cap, probs[i]!);
    odds[tierKey(t)] = cap;
  });
  return odds;
}

export const fitRunnerModel = (corpus: readonly RunnerCorpusRow[], opts: RunnerModelOptions): RunnerModel => runSteps(fitRunnerModelSteps(corpus, opts));
