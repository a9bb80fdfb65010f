import { createModelFitStore } from '../../../db/scoring/model-fit-store';
import { createCorpusStore } from '../../../db/mint/corpus-store';
import { createHistoryStore } from '../../../db/mint/history-store';
import type { CreateEvent } from '../../../domain/launch/launch-events';
import { MintTape } from '../../../domain/launch/mint-tape';
import { syntheticHistoryPlan } from '../../../domain/history/synthetic-history-plan';
import { seedSyntheticHistory } from '../../../ingest/history/seed-synthetic-history';
import { createKnnMintScorer, WARMING_RECHECK_S } from '../../../models/mint/knn-mint-scorer';
import { createLogger } from '../../../platform/logger';
import { createTestDatabase } from '../../support/test-db';

/**
 * On a fresh start the worker fits its models while ingest is still writing the seeded history: a fit then sees none
 * or part of it. Such a model is not servable (its numbers would be a prior or a partial fit, logged for good), so the
 * first scores wait for the history: the first score after it is complete refits on all of it.
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
const plan = syntheticHistoryPlan({
  nodeEnv: 'development',
  feeds: ['simulator'],
  launches: 400,
  seed: 7,
  launchesPerS: 1,
  graduationShare: 0.1,
  horizonS: 86_400,
  nowMs: NOW,
})!;

const create: CreateEvent = {
  kind: 'create',
  signature: '5'.repeat(88),
  ordinal: 0,
  slot: 1,
  at: new Date(NOW),
  source: 'test',
  mint: 'Live1111111111111111111111111111111111111111',
  name: 'Live',
  symbol: 'LIVE',
  uri: '',
  bondingCurve: 'Curve111111111111111111111111111111111111111',
  creator: 'Dev11111111111111111111111111111111111111111',
  mayhem: false,
  vSolLamports: 30e9,
  vTokensRaw: 1_073e12,
};

it('serves no score from a model fitted while the seeded history is written, and the first one after from all of it', async () => {
  let clock = NOW;
  const scorer = createKnnMintScorer({
    corpusStore: createCorpusStore(t.db),
    modelFitStore: createModelFitStore(t.db),
    refitEveryS: 600,
    corpusLimit: 100_000,
    log,
    now: () => clock,
  });
  const score = () => scorer.score({ create, tradesSoFar: [], tape: new MintTape(create), bucket: 60, ageS: 60, freshAmongFirstBuyers: 0 });
  const history = createHistoryStore(t.db);

  // Before any history: an empty corpus.
  const empty = await score();
  expect(empty.servable).toBe(false);
  expect(empty.modelVersions.grad_prob).toMatch(/^knn-v1@60:0:/);

  // Ingest has begun the run (part of it may be written): still not servable, however many rows are there.
  await history.begin(plan.runId, 'synthetic', new Date(NOW));
  expect(await history.seedingInProgress()).toBe(true);
  clock += (WARMING_RECHECK_S + 1) * 1000;
  expect((await score()).servable).toBe(false);

  // The run completes: the next score refits at once (no wait for the regular refit) and serves from all of it.
  const seeded = await seedSyntheticHistory(plan, history, log, () => new Date(NOW));
  expect(await history.seedingInProgress()).toBe(false);
  clock += (WARMING_RECHECK_S + 1) * 1000;
  const first = await score();
  expect(first.servable).toBe(true);
  const rows = Number(((await t.db('history_observations').where({ age_bucket: 60 }).count({ n: '*' }).first()) as { n: string }).n);
  expect(rows).toBeGreaterThan(seeded.mints - seeded.graduated);
  expect(first.modelVersions.grad_prob).toMatch(new RegExp(`^knn-v1@60:${rows}:[^+]+\\+synthetic$`));
}, 180_000);
