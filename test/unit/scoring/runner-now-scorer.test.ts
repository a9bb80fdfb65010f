import type { RunnerGridAge } from '../../../domain/scoring/runner-grid';
import type { RunnerNowRow } from '../../../domain/scoring/runner-now-model';
import { runnerNowFeatures } from '../../../domain/scoring/runner-now-features';
import { createRunnerNowScorer } from '../../../models/mint/runner-now-scorer';
import { createLogger } from '../../../platform/logger';
import { handBuiltMint, T0 } from '../../support/hand-built-mint';

/** The scorer over an in-memory corpus: which grid age answers, warming says null, and a refit is used at once. */
function scorerOver(rowsPerAge: number) {
  const asked: number[] = [];
  const corpus = async (ageS: RunnerGridAge) => {
    asked.push(ageS);
    const m = handBuiltMint();
    m.buy(1, 'a', 2);
    const f = runnerNowFeatures(m.tape(), T0 + ageS * 1000);
    return Array.from({ length: rowsPerAge }, (_, i): RunnerNowRow & { source: 'synthetic' } => ({
      mint: `h${i}`,
      ageS,
      features: { ...f, logTrades: f.logTrades + (i % 5) * 0.1 },
      peakMult: i % 3 === 0 ? 3 : 1.1,
      observedAt: new Date(T0 - 86_400_000 + i * 1000),
      source: 'synthetic',
    }));
  };
  const scorer = createRunnerNowScorer({
    store: { corpus },
    refitEveryS: 600,
    corpusLimit: 1000,
    liveWindowS: 300,
    log: createLogger('silent', 'test'),
    now: () => T0,
  });
  return { scorer, asked };
}

describe('runner-now scorer', () => {
  it('fits only the grid ages the live window reaches, one at a time, and answers from the age nearest the mint’s', async () => {
    const { scorer, asked } = scorerOver(300);
    expect(scorer.ages).toEqual([10, 30, 60, 120, 300]);
    await Promise.all(scorer.ages.map((a) => scorer.refit(a)));
    expect(asked).toEqual([10, 30, 60, 120, 300]);
    const m = handBuiltMint();
    m.buy(1, 'a', 2);
    const at = new Date(T0 + 250_000);
    const r = scorer.fromNow(m.tape(), at)!;
    expect(r).toMatchObject({ gridAgeS: 300, ageS: 250, priceSol: m.tape().price, at });
    expect(r.modelVersion).toMatch(/^runner-now-v1\/z@300:300:[0-9a-f]+\+synthetic$/);
    // The same features answer the same; two tiers never cross.
    expect(scorer.fromNow(m.tape(), at)!.odds).toEqual(r.odds);
    expect(r.odds['2x']).toBeGreaterThanOrEqual(r.odds['3x']);
  });

  it('answers null before its age is fitted and while it is warming', async () => {
    const { scorer } = scorerOver(50);
    const m = handBuiltMint();
    expect(scorer.fromNow(m.tape(), new Date(T0 + 60_000))).toBeNull();
    await scorer.refit(60);
    expect(scorer.fromNow(m.tape(), new Date(T0 + 60_000))).toBeNull();
  });
});
