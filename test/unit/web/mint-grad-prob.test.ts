import type { Schemas } from '../../../clients/api/api-client';
import { gradProbText, latestLogged } from '../../../web/mint/grad-prob-text';

/** The mint page's grad_prob line never says "not shown" above a logged score: it says what was scored, and when. */
type Mint = Schemas['EnrichedMint'];
type Predictions = Schemas['PredictionsByMint'];
const mint = (grad: number | null) => ({ grad_prob: grad, grad_prob_age_bucket: grad === null ? null : 60 }) as Mint;
const logged = (id: number, prob: number, ageBucket: number, at: string) =>
  ({ prediction_id: id, predicted_prob: prob, age_bucket: ageBucket, predicted_at: at }) as Predictions['predictions'][number];

it('says the live score while the list shows one', () => {
  expect(gradProbText(mint(0.0459), undefined)).toBe('4.6% at 60 s');
});

it('says the newest logged score, its age and time once the list no longer shows it', () => {
  const p = { count: 2, predictions: [logged(1, 0.031, 30, '2026-11-27T10:00:30Z'), logged(2, 0.0459, 60, '2026-11-27T10:01:00Z')] } as Predictions;
  const text = gradProbText(mint(null), latestLogged(p));
  expect(text).toMatch(/^4\.59% at 60 s, logged /);
  expect(text).not.toMatch(/not shown/);
});

it('says "not scored yet" only when nothing was logged', () => {
  expect(gradProbText(mint(null), latestLogged({ count: 0, predictions: [] } as unknown as Predictions))).toMatch(/^not scored yet/);
});
