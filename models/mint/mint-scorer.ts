import type { CreateEvent, TradeEvent } from '../../domain/launch/launch-events';
import type { MintTape } from '../../domain/launch/mint-tape';
import type { LaunchContext } from '../../domain/scoring/launch-features';
import type { MintFeatures } from '../../domain/scoring/mint-features';
import type { RugFeatures } from '../../domain/scoring/rug-features';
import type { RunnerOdds } from '../../domain/scoring/runner-model';
import type { SimilarLaunches } from '../../domain/scoring/similar-launches';

/** The calibration record every prediction carries inline (the spec's `grad_prob_calibration`). */
export type CalibrationRecord = {
  age_bucket: number;
  confidence_band: { lo: number; hi: number };
  n: number;
  historical_actual_rate: number | null;
  model_version: string;
};

export type ModelVersions = { grad_prob: string; rug_prob: string; runner_prob: string; post_grad_survival: string };

export type MintScore = {
  /**
   * False when the model was fitted on an empty or warming corpus (or on seeded history still being written): the
   * numbers are its prior, and the scoring activity records the moment as skipped rather than logging a prediction.
   */
  servable: boolean;
  gradProb: number;
  rawGradProb: number;
  features: MintFeatures;
  calibration: CalibrationRecord;
  /** Null while the rug predictor is warming. */
  rugProb: number | null;
  rugFeatures: RugFeatures;
  /** From the price at scoring; null while the runner predictor is warming. */
  runnerOdds: RunnerOdds | null;
  /** Logged, published only while the survival gate is live; null while warming. */
  survivalProb: number | null;
  modelVersions: ModelVersions;
  /** Every challenger version's grad_prob for the same features: logged in shadow, never served. */
  shadowScores: { modelName: string; modelVersion: string; gradProb: number }[];
  /** The serving model's nearest neighbours resolved before `cutAt` (the scoring moment): the score's evidence. */
  similarLaunches: SimilarLaunches;
};

export type ScoreRequest = {
  create: CreateEvent;
  /** Trades up to the scoring moment, in time order; `tape` has folded exactly these. */
  tradesSoFar: readonly TradeEvent[];
  tape: MintTape;
  /** Picks the models (30 or 60). */
  bucket: number;
  /** The actual age the trades run up to. */
  ageS: number;
  /** Fresh wallets among the first (up to three) buyers. */
  freshAmongFirstBuyers: number;
  /**
   * What the stream knew outside the tape at the scoring moment (freshness, the wallet index, the creator's record).
   * With it the logged snapshot carries the launch features (`features.launch`) whichever family serves, so the
   * corpus grows rows knn-v2 can learn from; knn-v2 cannot score without it.
   */
  launchContext?: LaunchContext;
};

/** Scores one mint at one age with every model. Implementations hold the fitted models. */
export interface MintScorer {
  score(r: ScoreRequest): Promise<MintScore>;
  /** Refits the models of `ages` in the background every refit period; returns the stop function. */
  startRefitLoop(ages: readonly number[]): () => void;
}
