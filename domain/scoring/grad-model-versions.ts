import { fitGradProbModelSteps, MODEL_NAME, type CorpusRow, type GradProbModel } from './grad-prob-model';
import { fitGradProbV2ModelSteps, MODEL_V2_NAME } from './grad-prob-v2-model';
import type { ScoreAge } from './score-age';
import type { Steps } from './stepwise';

/** Fits one grad_prob model version from a corpus at one age; every version answers the same model interface. */
export type GradModelFitter = (corpus: readonly CorpusRow[], opts: { ageBucket: ScoreAge }) => Steps<GradProbModel>;

/**
 * The grad_prob model versions a deployment can serve or shadow, by name. The configured champion serves and every
 * other configured version scores in shadow (MODEL_CHAMPION, MODEL_CHALLENGERS); the promotion rule moves the
 * champion. A new version (new features, metric, k or refit policy) adds one entry here and is named in the settings.
 */
export const GRAD_MODEL_VERSIONS: Readonly<Record<string, GradModelFitter>> = Object.freeze({
  [MODEL_NAME]: (corpus, o) => fitGradProbModelSteps(corpus, o),
  // The same features and metric with half the neighbours: a challenger buildable today, so the shadow machinery runs
  // end to end before a model with new features is registered.
  'knn-v1-k25': (corpus, o) => fitGradProbModelSteps(corpus, { ...o, k: 25, modelName: 'knn-v1-k25' }),
  // Point-in-time launch features and a metric learned at every fit by held-out log loss (docs/model.md).
  [MODEL_V2_NAME]: (corpus, o) => fitGradProbV2ModelSteps(corpus, o),
});

export function isGradModelVersion(name: string): boolean {
  return Object.hasOwn(GRAD_MODEL_VERSIONS, name);
}

/** The fitter of a configured name; an unknown name stops the worker at start (never a silent fallback). */
export function gradModelFitter(name: string): GradModelFitter {
  if (!isGradModelVersion(name)) throw new RangeError(`unknown grad_prob model version ${name}; known: ${Object.keys(GRAD_MODEL_VERSIONS).join(', ')}`);
  return GRAD_MODEL_VERSIONS[name]!;
}

/** The versions that score in shadow while `champion` serves: every configured one but the champion, each once. */
export function shadowVersions(champion: string, configured: readonly string[]): string[] {
  return [...new Set(configured)].filter((n) => n !== champion);
}
