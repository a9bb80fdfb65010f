import type { LatestPrediction } from '../../../domain/live/enriched-mint';
import { publicLiveMint } from '../../../domain/live/public-live-mint';
import { enrichHandBuilt } from '../../support/enrich-hand-built';
import { T0 } from '../../support/hand-built-mint';
import { latestPrediction } from '../../support/latest-prediction';

/** grad_prob is produced only while a mint is about 30 s or 60 s old; the last logged score stays readable. */
const score30 = latestPrediction({ ageBucket: 30, asOf: new Date(T0 + 30_500), gradProb: 0.11, calibration: { age_bucket: 30 } });
const score60 = latestPrediction({ ageBucket: 60, asOf: new Date(T0 + 61_000), gradProb: 0.22 });

const enrich = (ageS: number, prediction: LatestPrediction | null) => enrichHandBuilt(ageS, { prediction });

const shown = (ageS: number, p: LatestPrediction) => {
  const m = enrich(ageS, p);
  return [m.grad_prob, m.grad_prob_age_bucket, m.grad_prob_calibration === null ? null : 'calibrated'];
};

describe('the grad_prob window', () => {
  it('shows the 30 s score while the mint is about 30 s old and the 60 s score while it is about 60 s old', () => {
    expect(shown(31, score30)).toEqual([0.11, 30, 'calibrated']);
    expect(shown(44.9, score30)).toEqual([0.11, 30, 'calibrated']);
    expect(shown(61, score60)).toEqual([0.22, 60, 'calibrated']);
    expect(shown(74.9, score60)).toEqual([0.22, 60, 'calibrated']);
  });

  it('is null between the two ages and for older mints', () => {
    expect(shown(45, score30)).toEqual([null, null, null]);
    expect(shown(58, score30)).toEqual([null, null, null]);
    expect(shown(75, score60)).toEqual([null, null, null]);
    expect(shown(100, score60)).toEqual([null, null, null]);
    expect(shown(3600, score60)).toEqual([null, null, null]);
  });

  it('keeps the last logged score, its bucket and its moment readable at any age', () => {
    for (const age of [31, 50, 100, 3600]) {
      expect(enrich(age, score30)).toMatchObject({
        last_logged_grad_prob: 0.11,
        last_logged_grad_prob_age_bucket: 30,
        last_logged_grad_prob_at: new Date(T0 + 30_500).toISOString(),
      });
    }
    expect(enrich(100, score60)).toMatchObject({ grad_prob: null, last_logged_grad_prob: 0.22, last_logged_grad_prob_age_bucket: 60 });
    expect(enrich(20, null)).toMatchObject({ last_logged_grad_prob: null, last_logged_grad_prob_age_bucket: null, last_logged_grad_prob_at: null });
  });

  it('withholds the last logged score from the public list as it withholds grad_prob', () => {
    expect(publicLiveMint(enrich(100, score60))).toMatchObject({
      last_logged_grad_prob: null,
      last_logged_grad_prob_age_bucket: null,
      last_logged_grad_prob_at: null,
    });
  });
});
