import { buildAccuracyReport, type ForwardPrediction } from '../../../domain/accuracy/accuracy-report';
import { evaluateSurvivalGate } from '../../../domain/accuracy/survival-gate';
import { modelFamily } from '../../../domain/scoring/knn-label-model';
import { corpusTag } from '../../../models/mint/knn-mint-scorer';

/**
 * The `+backfill` tag: a model fitted on a corpus holding backfilled rows says so in its version, and the tag is part
 * of the model family, so the accuracy page reports those predictions apart from those of models fitted on the
 * deployment's own resolutions.
 */
const now = new Date('2026-11-24T00:00:00Z');

describe('corpus tags of model versions', () => {
  it('tags a version by the history its corpus holds', () => {
    expect(corpusTag([{ source: 'live' }])).toBe('');
    expect(corpusTag([{ source: 'live' }, { source: 'backfill' }])).toBe('+backfill');
    expect(corpusTag([{ source: 'synthetic' }])).toBe('+synthetic');
    expect(corpusTag([{ source: 'backfill' }, { source: 'synthetic' }])).toBe('+synthetic+backfill');
    expect(corpusTag([])).toBe('');
  });

  it('keeps the tags in the model family', () => {
    expect(modelFamily('knn-v1@30:1200:9f3a')).toBe('knn-v1');
    expect(modelFamily('knn-v1@30:1200:9f3a+backfill')).toBe('knn-v1+backfill');
    expect(modelFamily('rug-knn-v1@60:800:77+synthetic+backfill')).toBe('rug-knn-v1+synthetic+backfill');
    expect(modelFamily('knn-v1')).toBe('knn-v1');
  });

  it('reports the predictions of a backfill-fitted model apart on the accuracy page', () => {
    const pred = (mint: string, gradVersion: string, graduated: boolean): ForwardPrediction => ({
      mint,
      ageBucket: 30,
      predictedAt: new Date(now.getTime() - 3_600_000),
      gradProb: 0.5,
      gradVersion,
      rugProb: null,
      rugVersion: null,
      runnerOdds: null,
      runnerVersion: null,
      survivalProb: null,
      graduated,
      rugged: false,
      peakMult: 1,
    });
    const r = buildAccuracyReport({
      computedAt: now,
      windowDays: 30,
      predictions: [pred('a', 'knn-v1@30:500:aa', true), pred('b', 'knn-v1@30:900:bb+backfill', false), pred('c', 'knn-v1@30:901:cc+backfill', true)],
      checkpoints: [],
      survivalGate: evaluateSurvivalGate(null, [], now),
      currentVersions: { grad_prob: 'knn-v1@30:901:cc+backfill', rug_prob: null, runner_prob: null, post_grad_survival: null },
    });
    expect(r.grad_prob.map((m) => [m.model_version, m.n])).toEqual([
      ['knn-v1+backfill', 2],
      ['knn-v1', 1],
    ]);
  });
});
