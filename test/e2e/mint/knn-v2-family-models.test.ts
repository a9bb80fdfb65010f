import { createModelFitStore } from '../../../db/scoring/model-fit-store';
import { createCorpusStore } from '../../../db/mint/corpus-store';
import { createHistoryStore } from '../../../db/mint/history-store';
import { syntheticHistoryPlan } from '../../../domain/history/synthetic-history-plan';
import { seedSyntheticHistory } from '../../../ingest/history/seed-synthetic-history';
import { MintTape } from '../../../domain/launch/mint-tape';
import { NO_CONTEXT } from '../../../domain/scoring/launch-features';
import { createKnnMintScorer } from '../../../models/mint/knn-mint-scorer';
import { testCreate } from '../../support/launch-corpus';
import { createLogger } from '../../../platform/logger';
import { createTestDatabase } from '../../support/test-db';

/**
 * The model family follows the serving grad_prob version: while knn-v2 serves, rug_prob and runner odds come from
 * their learned-metric models too, and each fit records the metric it chose; while knn-v1 serves, both stay v1.
 */
let t: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});
const log = createLogger('warn', 'test');
const NOW = Date.parse('2026-11-24T12:00:00Z');

it('fits rug_prob and runner odds on the learned metric while knn-v2 serves, and records their metrics', async () => {
  const plan = syntheticHistoryPlan({
    nodeEnv: 'development',
    feeds: ['simulator'],
    launches: 600,
    seed: 11,
    launchesPerS: 1,
    graduationShare: 0.1,
    horizonS: 86_400,
    nowMs: NOW,
  })!;
  const history = createHistoryStore(t.db);
  await history.begin(plan.runId, 'synthetic', new Date(NOW));
  await seedSyntheticHistory(plan, history, log, () => new Date(NOW));
  const scorerOf = (champion: string, configured = [champion]) =>
    createKnnMintScorer({
      corpusStore: createCorpusStore(t.db),
      modelFitStore: createModelFitStore(t.db),
      refitEveryS: 600,
      corpusLimit: 100_000,
      log,
      now: () => NOW,
      gradVersions: { configured, currentChampion: () => Promise.resolve(champion) },
    });

  const v2 = await scorerOf('knn-v2').refit(60);
  expect(v2.versions.grad_prob).toMatch(/^knn-v2@60:/);
  expect(v2.versions.rug_prob).toMatch(/^rug-knn-v2@60:\d+:k\d+:[0-9a-f]+\+synthetic$/);
  expect(v2.versions.runner_prob).toMatch(/^runner-knn-v2@60:/);
  expect(v2.metrics.rug_prob?.k).toBeGreaterThan(0);
  const fits = await createModelFitStore(t.db).latestFits();
  const rugFit = fits.find((f) => f.predictor === 'rug_prob' && f.ageBucket === 60)!;
  expect(rugFit.version).toBe(v2.versions.rug_prob);
  expect(rugFit.metric).toEqual(v2.metrics.rug_prob);

  const v1 = await scorerOf('knn-v1').refit(60);
  expect(v1.versions.rug_prob).toMatch(/^rug-knn-v1@60:/);
  expect(v1.metrics.rug_prob).toBeUndefined();
  const again = (await createModelFitStore(t.db).latestFits()).find((f) => f.predictor === 'rug_prob' && f.ageBucket === 60)!;
  expect(again.metric).toBeNull();

  // knn-v2 as a challenger of knn-v1 (the default configuration): it scores in shadow whenever the request carries the
  // launch context; without one the served score still comes, with no knn-v2 shadow score.
  const shadowed = scorerOf('knn-v1', ['knn-v1', 'knn-v1-k25', 'knn-v2']);
  const models = await shadowed.refit(60);
  expect(models.versions.grad_prob).toMatch(/^knn-v1@60:/);
  expect(models.shadows.map((x) => x.name)).toEqual(['knn-v1-k25', 'knn-v2']);
  const create = testCreate(NOW);
  const request = { create, tradesSoFar: [], tape: new MintTape(create), bucket: 60, ageS: 60, freshAmongFirstBuyers: 0 };
  const withContext = await shadowed.score({ ...request, launchContext: NO_CONTEXT });
  expect(withContext.shadowScores.map((x) => x.modelName)).toEqual(['knn-v1-k25', 'knn-v2']);
  const v2Shadow = withContext.shadowScores.find((x) => x.modelName === 'knn-v2')!;
  expect(v2Shadow.modelVersion).toMatch(/^knn-v2@60:/);
  expect(v2Shadow.gradProb > 0 && v2Shadow.gradProb < 1).toBe(true);
  const without = await shadowed.score(request);
  expect(without.gradProb).toBe(withContext.gradProb);
  expect(without.shadowScores.map((x) => x.modelName)).toEqual(['knn-v1-k25']);

  // After a start the first scores come from a cold fit (here on every row, fewer than COLD_START_CORPUS, as after
  // `npm start`'s seeding): the champion only, so they do not wait for the challengers' search. The fit that follows
  // it at once in the background brings the challengers in.
  const started = createKnnMintScorer({
    corpusStore: createCorpusStore(t.db),
    modelFitStore: createModelFitStore(t.db),
    refitEveryS: 600,
    corpusLimit: 100_000,
    log,
    now: () => NOW,
    gradVersions: { configured: ['knn-v1', 'knn-v1-k25', 'knn-v2'], currentChampion: () => Promise.resolve('knn-v1') },
  });
  const first = await started.score({ ...request, launchContext: NO_CONTEXT });
  expect(first.modelVersions.grad_prob).toBe(models.versions.grad_prob);
  expect(first.shadowScores).toEqual([]);
  // The background fit is under way: refit joins it rather than starting another.
  const full = await started.refit(60);
  expect(full.corpusRows).toBe(models.corpusRows);
  expect(full.shadows.map((x) => x.name)).toEqual(['knn-v1-k25', 'knn-v2']);
  const next = await started.score({ ...request, launchContext: NO_CONTEXT });
  expect(next.modelVersions.grad_prob).toBe(full.versions.grad_prob);
  expect(next.shadowScores.map((x) => x.modelName)).toEqual(['knn-v1-k25', 'knn-v2']);
}, 300_000);
