import type { CorpusStore, ForwardCell } from '../../db/mint/corpus-store';
import type { CreateEvent, TradeEvent } from '../../domain/mint/launch-events';
import { LABEL_VERSION } from '../../domain/mint/outcome-labels';
import { confidenceBand } from '../../domain/scoring/confidence-band';
import { fitGradProbModelSteps, isScoreAgeOrThrow, type GradProbModel } from './knn-model-fit';
import { computeFeatures } from '../../domain/scoring/mint-features';
import type { Logger } from '../../platform/logger';
import { runInSlices } from '../../platform/time-slice';
import type { GradProbScore, GradProbScorer } from './grad-prob-scorer';

type Fitted = { model: GradProbModel; cells: ForwardCell[]; fittedAt: number };

/**
 * The k-NN grad_prob scorer the scoring activity uses. Models are fitted per age bucket from the resolved
 * corpus in Postgres and refitted in the background when older than `refitEveryS`; scoring never waits for
 * a refit once a model exists. A refit runs in ~10 ms slices (platform/time-slice.ts) and the new model
 * replaces the old one in a single assignment, so a score uses one whole model or the other. The inline
 * calibration record is forward-measured: resolved live predictions in the same (age × confidence) cell.
 */
export function createKnnGradProbScorer(d: { corpusStore: CorpusStore; refitEveryS: number; corpusLimit: number; log: Logger; now: () => number }): GradProbScorer & { refit(ageS: number): Promise<Fitted> } {
  const fitted = new Map<number, Fitted>();
  const refitting = new Map<number, Promise<Fitted>>();

  function refit(ageS: number): Promise<Fitted> {
    const running = refitting.get(ageS);
    if (running) return running;
    const p = (async () => {
      const started = d.now();
      const rows = await d.corpusStore.corpus(ageS, LABEL_VERSION, d.corpusLimit);
      // Fitted in slices: scoring of the other mints goes on with the previous model meanwhile.
      const model = await runInSlices(
        fitGradProbModelSteps(
          rows.map((r) => ({ mint: r.mint, ageBucket: isScoreAgeOrThrow(ageS), features: r.features, graduated: r.graduated, resolvedAt: r.resolvedAt, observedAt: r.observedAt })),
          { ageBucket: isScoreAgeOrThrow(ageS) },
        ),
      );
      const f = { model, cells: await d.corpusStore.forwardCells(ageS), fittedAt: d.now() };
      fitted.set(ageS, f);
      d.log.info({ ageS, corpus: rows.length, version: model.version, ms: d.now() - started }, 'grad_prob model fitted');
      return f;
    })().finally(() => refitting.delete(ageS));
    refitting.set(ageS, p);
    return p;
  }

  async function current(ageS: number): Promise<Fitted> {
    const f = fitted.get(ageS);
    if (!f) return refit(ageS);
    if (d.now() - f.fittedAt > d.refitEveryS * 1000) void refit(ageS).catch((e) => d.log.warn({ err: e }, 'grad_prob refit failed; keeping the previous model'));
    return f;
  }

  return {
    refit,
    async score(create: CreateEvent, tradesSoFar: TradeEvent[], at: { bucket: number; ageS: number }): Promise<GradProbScore> {
      const { model, cells } = await current(at.bucket);
      const features = computeFeatures(create, tradesSoFar, at.ageS);
      const s = model.score(features);
      const band = confidenceBand(s.prob);
      const cell = cells.find((c) => c.lo === band.lo);
      return {
        prob: s.prob,
        raw: s.raw,
        modelVersion: model.version,
        features,
        calibration: {
          age_bucket: at.bucket,
          confidence_band: { lo: band.lo, hi: band.hi },
          n: cell?.n ?? 0,
          historical_actual_rate: cell && cell.n > 0 ? cell.graduated / cell.n : null,
          model_version: model.version,
        },
      };
    },
  };
}
