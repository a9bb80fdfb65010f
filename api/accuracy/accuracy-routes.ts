import { learnedMetricBody } from './learned-metric-body';
import { Router } from 'express';
import type { AccuracyStore } from '../../db/accuracy/accuracy-store';
import type { GateStore } from '../../db/accuracy/gate-store';
import type { ModelFitStore } from '../../db/scoring/model-fit-store';
import type { OnStartStatus } from '../../db/history/backfill-on-start-store';
import type { CorpusSummary } from '../../db/mint/corpus-store';
import { onStartState } from '../../domain/history/backfill-on-start';
import { SURVIVAL_GATE } from '../../domain/accuracy/survival-gate';
import { corpusShare } from '../../domain/history/corpus-share';
import { MIN_SAMPLES, PREDICTORS } from '../../domain/scoring/predictors';
import { SCORE_AGES } from '../../domain/scoring/score-age';
import { unavailable } from '../http/http-error';
import { backtestBody } from './backtest-body';
import { sendPreparedRead } from '../http/prepared-body';
import { createPreparedRead } from '../http/prepared-read';
import type { PublicReads } from '../http/public-reads';

export type AccuracyRouteDeps = {
  accuracyStore: AccuracyStore;
  modelFitStore: ModelFitStore;
  gateStore: GateStore;
  /** What the labelled corpus holds by origin (the backfilled share). */
  corpusSummary: () => Promise<CorpusSummary>;
  /** The first start's automatic backfill (HISTORY_BACKFILL_ON_START_H), null when none was started. */
  backfillOnStart: () => Promise<OnStartStatus | null>;
  modelRefitEveryS: number;
  accuracyRefreshS: number;
  now: () => Date;
  readCacheTtlMs: number;
  publicReads: PublicReads;
};

/** A fit older than this many refit periods is stale: the worker that should refit it is not doing so. */
export const FRESH_REFIT_PERIODS = 2;

const ACCURACY_CACHE_CONTROL = 'public, max-age=30';

export function accuracyRoutes(d: AccuracyRouteDeps): Router {
  const r = Router();

  // The background recompute writes one row; this reads it as is, once per `readCacheTtlMs`.
  const accuracy = createPreparedRead(
    async () => {
      const body = await d.accuracyStore.readReport();
      if (!body) throw unavailable('the accuracy page has not been computed yet; it is recomputed in the background every few minutes', d.accuracyRefreshS);
      return body;
    },
    { ttlMs: d.readCacheTtlMs },
  );
  d.publicReads.register('/api/accuracy', accuracy, ACCURACY_CACHE_CONTROL);
  r.get('/api/accuracy', async (req, res) => sendPreparedRead(req, res, await accuracy.get(), ACCURACY_CACHE_CONTROL));

  const health = createPreparedRead(
    async () => {
      const now = d.now();
      const [fits, gate, summary, onStart] = await Promise.all([
        d.modelFitStore.latestFits(),
        d.gateStore.read(SURVIVAL_GATE.name),
        d.corpusSummary(),
        d.backfillOnStart(),
      ]);
      const predictors = PREDICTORS.flatMap((name) =>
        SCORE_AGES.map((age) => {
          const f = fits.find((x) => x.predictor === name && x.ageBucket === age);
          const ageS = f ? Math.max(0, (now.getTime() - f.fittedAt.getTime()) / 1000) : null;
          const suspended = name === 'post_grad_survival' && gate?.state !== 'live';
          return {
            name,
            age_bucket: age,
            status: suspended ? ('suspended' as const) : (f?.status ?? ('warming' as const)),
            model_version: f?.version ?? null,
            samples: { total: f?.samplesTotal ?? 0, positive: f?.samplesPositive ?? 0, negative: f ? f.samplesTotal - f.samplesPositive : 0 },
            min_samples: f?.minSamples ?? MIN_SAMPLES[name],
            calibration_method: f?.calibrationMethod ?? null,
            calibration_samples: f?.calibrationSamples ?? 0,
            calibrated_at: f ? f.fittedAt.toISOString() : null,
            calibration_age_s: ageS,
            calibration_fresh: ageS !== null && ageS <= FRESH_REFIT_PERIODS * d.modelRefitEveryS,
            metric: f?.metric ? learnedMetricBody(f.metric) : null,
            // Below the held-out minimum a fit has no slice to backtest: null, not zeros.
            backtest: f?.backtest?.n ? backtestBody(f.version, f.backtest) : null,
          };
        }),
      );
      const share = corpusShare(summary);
      const corpus = {
        labelled_mints: share.labelledMints,
        backfilled_share: share.backfilledShare,
        backfill_oldest_created_at: share.backfillOldestCreatedAt?.toISOString() ?? null,
        backfill_newest_created_at: share.backfillNewestCreatedAt?.toISOString() ?? null,
        backfill_on_start: onStart && {
          workflow_id: onStart.rangeId,
          from: new Date(onStart.fromMs).toISOString(),
          to: new Date(onStart.toMs).toISOString(),
          hours: onStart.hours,
          requested_at: onStart.requestedAt.toISOString(),
          chunks: onStart.chunks,
          chunks_done: onStart.chunksDone,
          state: onStartState(onStart.chunks, onStart.chunksDone),
        },
      };
      return { checked_at: now.toISOString(), refit_interval_s: d.modelRefitEveryS, predictors, corpus };
    },
    { ttlMs: d.readCacheTtlMs },
  );
  d.publicReads.register('/api/predictor/health', health, 'no-store');
  r.get('/api/predictor/health', async (req, res) => sendPreparedRead(req, res, await health.get(), 'no-store'));
  return r;
}
