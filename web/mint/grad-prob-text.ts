import type { Schemas } from '../../clients/api/api-client';
import { dateTime, pct } from '../lib/format';

type Mint = Schemas['EnrichedMintFields'];
type Predictions = Schemas['PredictionsByMint'];
export type Logged = Predictions['predictions'][number];

/**
 * What the grad_prob line says. The live list shows a score only between 30 s and 120 s of age, so an older mint
 * has none there although one was logged: the logged score is then said with its age and time, never "not shown".
 */
export function gradProbText(m: Mint, latest: Logged | undefined): string {
  if (m.grad_prob !== null) return `${pct(m.grad_prob)} at ${m.grad_prob_age_bucket} s`;
  if (latest)
    return `${pct(latest.predicted_prob, 2)} at ${latest.age_bucket} s, logged ${dateTime(latest.predicted_at)} (the live list shows scores from 30 s to 120 s of age)`;
  return 'not scored yet (scored at 30 s and 60 s of age, shown on the live list until 120 s)';
}

/** The newest logged prediction of a mint, if any. */
export const latestLogged = (p: Predictions | undefined): Logged | undefined =>
  p?.predictions.reduce<Logged | undefined>((a, r) => (!a || r.predicted_at > a.predicted_at ? r : a), undefined);
