import { enrichMint, GRAD_PROB_SHOWN_UNTIL_S, type LatestPrediction, type RunnerOddsFrom } from '../../../domain/live/enriched-mint';
import { creatorRecord } from '../../../domain/launch/creator-record';
import { handBuiltMint, T0 } from '../../support/hand-built-mint';
import { latestPrediction } from '../../support/latest-prediction';

/** Where the enriched mint's runner odds start from: the live refresh's current price first, else the score's. */
const scored = latestPrediction({ survivalProb: null });

function enrich(ageS: number, o: { fromNow?: RunnerOddsFrom | null; graduated?: boolean; prediction?: LatestPrediction | null } = {}) {
  const m = handBuiltMint();
  m.buy(5, 'A', 1);
  return enrichMint({
    tape: m.tape(),
    now: new Date(T0 + ageS * 1000),
    prediction: o.prediction === undefined ? scored : o.prediction,
    creator: creatorRecord(null),
    creatorLaunches: 0,
    solUsd: null,
    freshness: new Map(),
    graduatedAt: o.graduated ? new Date(T0 + 100_000) : null,
    survivalLive: false,
    runnerFromNow: o.fromNow,
  });
}

describe('runner odds on the enriched mint', () => {
  const at = new Date(T0 + 400_000);
  const fromNow: RunnerOddsFrom = { odds: { '2x': 0.4, '3x': 0.25, '5x': 0.12, '10x': 0.04, '20x': 0.02 }, ageS: 400, priceSol: 5e-8, at };

  it('publishes the from-now odds at any age, saying the age, price and moment they start from', () => {
    const m = enrich(400, { fromNow });
    expect(m).toMatchObject({
      grad_prob: null,
      runner_prob_2x_from_now: 0.4,
      runner_prob_5x_from_now: 0.12,
      runner_prob_20x_from_now: 0.02,
      runner_reference_price_sol: 5e-8,
      runner_odds_from: { age_s: 400, price_sol: 5e-8, at: at.toISOString() },
    });
    // Young, with a score shown too: the from-now odds still win over the score's.
    expect(enrich(70, { fromNow })).toMatchObject({ grad_prob: 0.2, runner_prob_2x_from_now: 0.4 });
  });

  it('falls back to the odds logged with a shown score, from its own age and price, and to nothing after that', () => {
    expect(enrich(70)).toMatchObject({
      runner_prob_2x_from_now: 0.3,
      runner_reference_price_sol: 4e-8,
      runner_odds_from: { age_s: 60, price_sol: 4e-8, at: new Date(T0 + 60_000).toISOString() },
    });
    expect(enrich(GRAD_PROB_SHOWN_UNTIL_S + 1)).toMatchObject({ runner_prob_2x_from_now: null, runner_reference_price_sol: null, runner_odds_from: null });
    expect(enrich(70, { prediction: null, fromNow: null })).toMatchObject({ runner_prob_5x_from_now: null, runner_odds_from: null });
  });

  it('gives a graduated mint no from-now odds: its curve has stopped', () => {
    expect(enrich(400, { fromNow, graduated: true })).toMatchObject({ runner_prob_2x_from_now: null, runner_odds_from: null });
  });
});
