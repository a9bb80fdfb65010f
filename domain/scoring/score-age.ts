/**
 * The ages a mint is scored at, and which bucket an age belongs to. The spec: grad_prob is produced only
 * while a mint is "about" 30 s or 60 s old and is null otherwise. "About" is SCORE_AGE_WINDOW_S: a score
 * taken at 30 s is that mint's 30 s score until 45 s of age. Kept apart from the model so workflow code can
 * import the ages without pulling the k-NN in.
 */
export const SCORE_AGES = [30, 60] as const;

export type ScoreAge = (typeof SCORE_AGES)[number];

export const SCORE_AGE_WINDOW_S = 15;

export function scoreAgeBucket(ageS: number, windowS = SCORE_AGE_WINDOW_S): ScoreAge | null {
  for (const a of SCORE_AGES) if (ageS >= a && ageS < a + windowS) return a;
  return null;
}

export const isScoreAge = (x: number): x is ScoreAge => (SCORE_AGES as readonly number[]).includes(x);
