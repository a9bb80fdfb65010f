import type { ModelFit, ModelFitStore } from '../../db/scoring/model-fit-store';
import type { CorpusStore, ForwardCell, ModelCorpusRecord } from '../../db/mint/corpus-store';
import { LABEL_VERSION, RUG_LABEL_VERSION } from '../../domain/launch/outcome-labels';
import { confidenceBand } from '../../domain/scoring/confidence-band';
import { gradModelFitter, shadowVersions } from '../../domain/scoring/grad-model-versions';
import { MIN_GRAD_CORPUS, MODEL_NAME, type GradProbModel } from '../../domain/scoring/grad-prob-model';
import { MODEL_V2_NAME } from '../../domain/scoring/grad-prob-v2-model';
import { computeLaunchFeatures } from '../../domain/scoring/launch-features';
import type { Scaling } from '../../domain/scoring/knn-index';
import type { LearnedMetric } from '../../domain/scoring/learned-knn-model';
import { computeFeatures, type MintFeatures } from '../../domain/scoring/mint-features';
import { fitRunnerV2ModelSteps } from '../../domain/scoring/runner-v2-model';
import type { HoldoutBacktest } from '../../domain/scoring/holdout-backtest';
import { computeRugFeatures } from '../../domain/scoring/rug-features';
import { fitRugModelSteps, type RugModel } from '../../domain/scoring/rug-model';
import { fitRugV2ModelSteps } from '../../domain/scoring/rug-v2-model';
import { fitRunnerModelSteps, type RunnerModel } from '../../domain/scoring/runner-model';
import { isScoreAge, type ScoreAge } from '../../domain/scoring/score-age';
import { runStepsAsync } from '../../domain/scoring/stepwise';
import { modelFamily } from '../../domain/scoring/knn-label-model';
import { fitSurvivalModelSteps, type SurvivalModel } from '../../domain/scoring/survival-model';
import type { Logger } from '../../platform/logger';
import type { MintScore, MintScorer, ScoreRequest } from './mint-scorer';
import { similarLaunchIndexSteps, type SimilarLaunchIndex } from './similar-launch-index';

type AgeModels = {
  grad: GradProbModel;
  rug: RugModel;
  runner: RunnerModel;
  survival: SurvivalModel;
  cells: ForwardCell[];
  corpusRows: number;
  fittedAt: number;
  /**
   * False when grad_prob was fitted on fewer than `minServingCorpus` rows or while seeded history was still being
   * written: its number is then a prior, not a score, and the scoring activity logs no prediction from it.
   */
  servable: boolean;
  /** Published model versions: the fit's own, tagged when the corpus holds history (corpusTag). */
  versions: Record<'grad_prob' | 'rug_prob' | 'runner_prob' | 'post_grad_survival', string>;
  /** The learned metrics (knn-v2 only). */
  metrics: Partial<Record<'grad_prob' | 'rug_prob' | 'runner_prob', LearnedMetric>>;
  /** The serving version's name, and the other configured versions fitted on the same rows to score in shadow. */
  champion: string;
  shadows: { name: string; version: string; model: GradProbModel }[];
  /** The serving grad_prob model's neighbours as similar launches (the evidence logged with each score). */
  similar: SimilarLaunchIndex;
};

/**
 * Models fitted on history say so in their version: `+synthetic` (seeded by the simulator), so no one mistakes them for
 * models of the real market, and `+backfill` (read from the chain), so accuracy pages tell their predictions apart
 * (the tags are part of the model family, domain/scoring/knn-label-model.ts `modelFamily`).
 */
export const corpusTag = (rows: readonly Pick<ModelCorpusRecord, 'source'>[]) =>
  (['synthetic', 'backfill'] as const).flatMap((s) => (rows.some((r) => r.source === s) ? [`+${s}`] : [])).join('');

/** A model fitted below its minimum corpus looks again this often, so history loaded after a start is used soon. */
export const WARMING_REFIT_S = 30;
/**
 * A score that finds its model not servable refits first when the fit is older than this: the first mints after the
 * seeded history lands are scored by a model fitted on all of it, not skipped until the next background refit.
 */
export const WARMING_RECHECK_S = 5;

/**
 * The first fit after a start reads only this many newest rows. A full 200k-row fit of the four models takes
 * tens of seconds (grad_prob alone at 100k rows: ~17 s on the earlier flat index, 5–13 s on the k-d tree by
 * `npm run bench:score` on a shared 2-core machine, mostly scoring the calibration slice), longer than a scoring
 * activity may wait; 20k rows take about a second per model.
 */
export const COLD_START_CORPUS = 20_000;

export type KnnMintScorerDeps = {
  corpusStore: CorpusStore;
  modelFitStore: ModelFitStore;
  refitEveryS: number;
  corpusLimit: number;
  log: Logger;
  now: () => number;
  /** Rows of the first fit after a start (default COLD_START_CORPUS). */
  coldStartCorpus?: number;
  /** Below this many grad_prob corpus rows no score is logged (default MIN_GRAD_CORPUS). */
  minServingCorpus?: number;
  /** grad_prob model versions by name (domain/scoring/grad-model-versions.ts): the configured champion and challengers. */
  gradVersions?: { configured: readonly string[]; currentChampion: () => Promise<string> };
};

/** Lifecycle timings are configurable, but models exist only for the published ages. */
export function isScoreAgeOrThrow(ageS: number): ScoreAge {
  if (!isScoreAge(ageS)) throw new RangeError(`no model for age ${ageS} s; scored ages are 30 and 60`);
  return ageS;
}

/** Yields to the event loop between chunks of a fit, so scoring activities run while a refit is under way. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The k-NN scorer the scoring activity uses: per age bucket, grad_prob, rug_prob, runner odds and survival,
 * all fitted from one corpus read (resolved prediction rows with their labels). Models are refitted in the
 * background every `refitEveryS` (by `startRefitLoop`, and on a score that finds them stale); scoring keeps
 * using the previous models meanwhile, and the fit yields to the event loop between chunks of work, so a
 * refit never blocks scoring. Only the first score of an age after a start waits, for a cold-start fit on the
 * newest rows (COLD_START_CORPUS); the full corpus is fitted right after, in the background.
 *
 * The refit runs in each worker process on a timer rather than as a Temporal Schedule: the index lives in
 * that worker's memory, and a scheduled activity would refit only whichever worker picked it up.
 */
export function createKnnMintScorer(
  d: KnnMintScorerDeps,
): MintScorer & { refit(ageS: number): Promise<AgeModels>; startRefitLoop(ages: readonly number[]): () => void } {
  // Every configured version must exist: an unknown name stops the worker here, not at the first score.
  for (const name of d.gradVersions?.configured ?? []) gradModelFitter(name);
  const fitted = new Map<number, AgeModels>();
  const refitting = new Map<number, Promise<AgeModels>>();
  /**
   * A cold fit is followed at once by a full one when it read as many rows as it asked for (below the configured
   * corpus), or when it left challengers out of a servable fit (while not servable, the next score fits cold again).
   */
  const fullFitFollows = (coldLimit: number, cold: AgeModels) =>
    (d.corpusLimit > coldLimit && cold.corpusRows >= coldLimit) ||
    (cold.servable && shadowVersions(cold.champion, d.gradVersions?.configured ?? []).length > 0);

  /**
   * `cold`: the first fit after a start (on the newest `limit` rows) fits the champion only. Challengers only ever
   * score in shadow, so the first served scores need not wait for their search (knn-v2's takes seconds even at the
   * size `npm start` seeds); a fit with them follows at once in the background, and the mints scored in between
   * carry no shadow score (the forward comparison pairs only mints both models scored).
   */
  async function fitAll(age: ScoreAge, limit: number, cold = false): Promise<AgeModels> {
    const started = d.now();
    // Read before the corpus: a run completing in between leaves this fit marked not servable, and the next score
    // refits from all of it.
    const seeding = await d.corpusStore.seedingInProgress();
    const rows = await d.corpusStore.modelCorpus(age, LABEL_VERSION, RUG_LABEL_VERSION, limit);
    // The champion is read at every fit, so a promotion serves from each worker's next refit.
    const champion = d.gradVersions ? await d.gradVersions.currentChampion() : MODEL_NAME;
    // The runner and rug models follow the serving family: knn-v2's learned metric for runner odds and rug_prob too.
    const v2 = champion === MODEL_V2_NAME;
    const grad = await runStepsAsync(gradModelFitter(champion)(rows, { ageBucket: age }), yieldToEventLoop);
    const shadowFits: { name: string; model: GradProbModel }[] = [];
    for (const name of cold ? [] : shadowVersions(champion, d.gradVersions?.configured ?? [])) {
      shadowFits.push({ name, model: await runStepsAsync(gradModelFitter(name)(rows, { ageBucket: age }), yieldToEventLoop) });
    }
    const rug = await runStepsAsync((v2 ? fitRugV2ModelSteps : fitRugModelSteps)(rugCorpus(rows, age), { ageBucket: age }), yieldToEventLoop);
    const runner = await runStepsAsync((v2 ? fitRunnerV2ModelSteps : fitRunnerModelSteps)(runnerCorpus(rows, age), { ageBucket: age }), yieldToEventLoop);
    const metricOf = (m: object): LearnedMetric | undefined => ('metric' in m ? (m.metric as LearnedMetric) : undefined);
    const metrics: AgeModels['metrics'] = { grad_prob: metricOf(grad), rug_prob: metricOf(rug), runner_prob: metricOf(runner) };
    // knn-v2 hands over its own feature scale: the evidence needs no pass of its own over the corpus.
    const fittedScaling = 'scaling' in grad ? (grad.scaling as Scaling) : undefined;
    const similar = await runStepsAsync(similarLaunchIndexSteps(rows, age, champion, metrics.grad_prob, fittedScaling), yieldToEventLoop);
    const survival = await runStepsAsync(fitSurvivalModelSteps(survivalCorpus(rows, age), { ageBucket: age }), yieldToEventLoop);
    const tag = corpusTag(rows);
    // The inline calibration record of a score: forward cells of the family serving it, never pooled across families.
    const cells = await d.corpusStore.forwardCells(age, modelFamily(grad.version + tag));
    const fittedAt = d.now();
    const fitMs = fittedAt - started;
    const at = new Date(fittedAt);
    const versions = {
      grad_prob: grad.version + tag,
      rug_prob: rug.version + tag,
      runner_prob: runner.version + tag,
      post_grad_survival: survival.version + tag,
    };
    const fit = (
      predictor: ModelFit['predictor'],
      m: { version: string; corpusSize: number },
      status: ModelFit['status'],
      positives: number,
      minSamples: number,
      cal: { method: string; samples: number },
      backtest: HoldoutBacktest,
    ): ModelFit => ({
      predictor,
      ageBucket: age,
      version: m.version + tag,
      status,
      samplesTotal: m.corpusSize,
      samplesPositive: positives,
      minSamples,
      calibrationMethod: cal.method,
      calibrationSamples: cal.samples,
      fittedAt: at,
      fitMs,
      metric: (predictor === 'post_grad_survival' ? undefined : metrics[predictor]) ?? null,
      backtest,
    });
    const fiveX = runner.labels.find((l) => l.name === '5x')!;
    await d.modelFitStore.recordFits([
      fit(
        'grad_prob',
        grad,
        grad.corpusSize >= MIN_GRAD_CORPUS ? 'live' : 'warming',
        rows.filter((r) => r.graduated).length,
        MIN_GRAD_CORPUS,
        grad.calibration,
        grad.backtest,
      ),
      fit('rug_prob', rug, rug.status, rug.labels[0]!.positives, rug.minSamples, rug.labels[0]!.calibration, rug.labels[0]!.backtest),
      fit('runner_prob', runner, runner.status, fiveX.positives, runner.minSamples, fiveX.calibration, fiveX.backtest),
      fit(
        'post_grad_survival',
        survival,
        survival.status,
        survival.labels[0]!.positives,
        survival.minSamples,
        survival.labels[0]!.calibration,
        survival.labels[0]!.backtest,
      ),
    ]);
    d.log.info(
      { age, corpus: rows.length, grad: grad.version, rug: rug.version, runner: runner.version, survival: survival.version, ms: fitMs },
      'models fitted',
    );
    const servable = !seeding && grad.corpusSize >= (d.minServingCorpus ?? MIN_GRAD_CORPUS);
    const shadows = shadowFits.map((f) => ({ name: f.name, version: f.model.version + tag, model: f.model }));
    return { grad, rug, runner, survival, cells, corpusRows: rows.length, fittedAt, versions, metrics, servable, champion, shadows, similar };
  }

  function refit(ageS: number, limit = d.corpusLimit, cold = false): Promise<AgeModels> {
    const age = isScoreAgeOrThrow(ageS);
    const running = refitting.get(age);
    if (running) return running;
    const p = fitAll(age, limit, cold)
      .then((m) => {
        fitted.set(age, m);
        return m;
      })
      .finally(() => refitting.delete(age));
    refitting.set(age, p);
    return p;
  }

  const refitInBackground = (age: number) => void refit(age).catch((e) => d.log.warn({ err: e, age }, 'model refit failed; keeping the previous models'));

  async function current(age: number): Promise<AgeModels> {
    const f = fitted.get(age);
    if (!f || (!f.servable && d.now() - f.fittedAt > WARMING_RECHECK_S * 1000)) {
      // Cold start: serve from the newest COLD_START_CORPUS rows within seconds, then fit the full corpus and challengers.
      const coldLimit = Math.min(d.corpusLimit, d.coldStartCorpus ?? COLD_START_CORPUS);
      const cold = await refit(age, coldLimit, true);
      if (fullFitFollows(coldLimit, cold)) refitInBackground(age);
      return cold;
    }
    // A warming model only says "no data yet": it looks again every WARMING_REFIT_S, so history loaded after the
    // start is in use within seconds instead of at the next regular refit.
    const every = f.grad.corpusSize < MIN_GRAD_CORPUS ? Math.min(WARMING_REFIT_S, d.refitEveryS) : d.refitEveryS;
    if (d.now() - f.fittedAt > every * 1000) refitInBackground(age);
    return f;
  }

  return {
    refit,
    startRefitLoop(ages) {
      // Fit at once, before the first score asks.
      for (const a of ages) void current(a).catch((e) => d.log.warn({ err: e, age: a }, 'initial model fit failed; the next score retries'));
      const timer = setInterval(() => ages.forEach(refitInBackground), d.refitEveryS * 1000);
      timer.unref();
      return () => clearInterval(timer);
    },
    async score(r: ScoreRequest): Promise<MintScore> {
      const m = await current(r.bucket);
      const features: MintFeatures = computeFeatures(r.create, r.tradesSoFar, r.ageS);
      if (r.launchContext) features.launch = computeLaunchFeatures(r.create, r.tradesSoFar, r.ageS, r.launchContext);
      const rugFeatures = computeRugFeatures(r.tape, r.freshAmongFirstBuyers);
      const s = m.grad.score(features);
      // The evidence is cut at this moment: nothing resolved at or after it is shown beside the score.
      const scoredAt = new Date(d.now());
      const band = confidenceBand(s.prob);
      const cell = m.cells.find((c) => c.lo === band.lo);
      return {
        servable: m.servable,
        gradProb: s.prob,
        rawGradProb: s.raw,
        features,
        calibration: {
          age_bucket: r.bucket,
          confidence_band: { lo: band.lo, hi: band.hi },
          n: cell?.n ?? 0,
          historical_actual_rate: cell && cell.n > 0 ? cell.graduated / cell.n : null,
          model_version: m.versions.grad_prob,
        },
        rugProb: m.rug.score(rugFeatures),
        rugFeatures,
        runnerOdds: m.runner.score(features),
        survivalProb: m.survival.score(features),
        modelVersions: m.versions,
        // A challenger that cannot score this snapshot (knn-v2 without a launch context) logs no shadow score for it
        // rather than failing the served one.
        shadowScores: m.shadows.flatMap((x) =>
          x.model.canScore(features) ? [{ modelName: x.name, modelVersion: x.version, gradProb: x.model.score(features).prob }] : [],
        ),
        similarLaunches: { cutAt: scoredAt, launches: m.similar.of(s.neighbours, features, scoredAt) },
      };
    },
  };
}

const rugCorpus = (rows: readonly ModelCorpusRecord[], age: ScoreAge) =>
  rows.flatMap((r) =>
    r.rugFeatures && r.rugged !== null ? [{ mint: r.mint, ageBucket: age, features: r.rugFeatures, rugged: r.rugged, observedAt: r.observedAt }] : [],
  );

const runnerCorpus = (rows: readonly ModelCorpusRecord[], age: ScoreAge) =>
  rows.flatMap((r) => (r.peakMult !== null ? [{ mint: r.mint, ageBucket: age, features: r.features, peakMult: r.peakMult, observedAt: r.observedAt }] : []));

const survivalCorpus = (rows: readonly ModelCorpusRecord[], age: ScoreAge) =>
  rows.flatMap((r) =>
    r.graduated && r.sustained30m !== null ? [{ mint: r.mint, ageBucket: age, features: r.features, sustained: r.sustained30m, observedAt: r.observedAt }] : [],
  );
