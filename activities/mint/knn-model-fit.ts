import { isScoreAge, type ScoreAge } from '../../domain/scoring/score-age';
export { fitGradProbModel, fitGradProbModelSteps, type GradProbModel } from '../../domain/scoring/grad-prob-model';

/** Lifecycle timings are configurable, but a model exists only for the published ages. */
export function isScoreAgeOrThrow(ageS: number): ScoreAge {
  if (!isScoreAge(ageS)) throw new RangeError(`no grad_prob model for age ${ageS} s; scored ages are 30 and 60`);
  return ageS;
}
