import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { ageReport, type AgeReport } from '../../domain/backtest/backtest-report';
import { LaunchHistoryFolder, type FoldCounts, type ResolvedLaunch } from '../../domain/scoring/launch-histories';
import { ablations, knnV1, knnV2, logisticReference, registeredVersion, vSolBandReference } from '../../domain/backtest/forward-models';
import { replayPublished, type ReplayDecision } from '../../domain/backtest/published-replay';
import { SHADOW_PROMOTION_V1 } from '../../domain/accuracy/shadow-promotion';
import { walkForward, type BacktestRow, type ForwardPrediction, type WalkForwardResult } from '../../domain/backtest/walk-forward';
import { SCORE_AGES, type ScoreAge } from '../../domain/scoring/score-age';
import type { Dataset } from './launch-datasets';
import { isSmartWallet } from '../../domain/wallets/smart-score';

/**
 * Runs one backtest: the dataset's events are folded into labelled observations exactly as production would
 * have recorded them, then each scoring age is walked forward in time. Progress goes to a sink (the CLI's
 * progress bars; nothing in tests).
 */
export type BacktestSettings = {
  /** Label horizon (the lifecycle's resolveAfterS). */
  horizonS: number;
  refitEveryS: number;
  corpusLimit: number;
  /** A window is scored only once the known corpus has this many rows; before, it is warm-up. */
  minCorpus: number;
  /** Also walk knn-v2 with each feature group left out (ABLATION_GROUPS). */
  ablation?: boolean;
  /**
   * MODEL_CHAMPION then MODEL_CHALLENGERS, for the `published` row (the promotion rule replayed over the walk);
   * default knn-v1 then knn-v2. Versions not walked otherwise are walked for grad_prob only.
   */
  configured?: readonly string[];
};

/** The `published` row's model name: what a deployment would have served, promotions replayed. */
export const PUBLISHED = 'published';
/** The deployment's decision period (the promotion schedule's default: hourly, on the UTC hour). */
const DECIDE_EVERY_MS = 3_600_000;

/** One model's figures at one age; `predictions` are every forward prediction it made (for `--write`). */
export type ModelOutcome = { name: string; report: AgeReport; predictions: ForwardPrediction[]; choices?: string[] };

export interface ProgressSink {
  phase(name: string, total: number): void;
  update(value: number, note?: string): void;
  done(): void;
}

export const SILENT: ProgressSink = { phase() {}, update() {}, done() {} };

export type AgeOutcome = {
  ageS: ScoreAge;
  observations: number;
  warmup: number;
  fits: number;
  /** The published family's (knn-v1) figures, as before the comparison existed. */
  report: AgeReport;
  /** Every model walked, in order: knn-v1, knn-v2, the references, then any ablation. */
  models: ModelOutcome[];
  firstPredictionAt: Date | null;
  lastPredictionAt: Date | null;
};

export type BacktestOutcome = {
  dataset: string;
  settings: BacktestSettings;
  span: { fromMs: number; toMs: number } | null;
  counts: FoldCounts;
  resolved: number;
  unresolved: number;
  rejected: Dataset['rejected'];
  ages: AgeOutcome[];
  /** The promotion rule's decisions replayed over the walk, and the version serving from each moment. */
  promotion: { configured: readonly string[]; decisions: ReplayDecision[]; served: { from: Date | null; version: string }[] };
};

const EVENTS_PER_TICK = 1 << 12;

export async function runBacktest(ds: Dataset, settings: BacktestSettings, progress: ProgressSink = SILENT): Promise<BacktestOutcome> {
  const span = await ds.span();
  const folder = new LaunchHistoryFolder(settings.horizonS, isSmartWallet);
  const rows = new Map<ScoreAge, BacktestRow[]>(SCORE_AGES.map((a) => [a, []]));
  let resolved = 0;
  const keep = (launches: ResolvedLaunch[]) => {
    for (const l of launches) {
      resolved++;
      for (const o of l.observations) {
        rows.get(o.ageS)!.push({
          mint: l.mint,
          ageBucket: o.ageS,
          features: o.features,
          graduated: l.outcome.graduated,
          observedAt: o.observedAt,
          resolvedAt: l.resolvedAt,
          peakMultFromCall: o.peakMultFromCall,
        });
      }
    }
  };

  progress.phase('events → labelled launches', span ? Math.max(1, span.toMs - span.fromMs) : 1);
  let n = 0;
  for await (const e of ds.events()) {
    keep(folder.push(e));
    if (++n % EVENTS_PER_TICK === 0) {
      progress.update(span ? Math.max(0, e.at.getTime() - span.fromMs) : 0, `${n} events`);
      await nextMacrotask();
    }
  }
  progress.update(span ? span.toMs - span.fromMs : 1, `${n} events`);
  progress.done();

  const configured = settings.configured ?? ['knn-v1', 'knn-v2'];
  const walked = [knnV1(), knnV2(), vSolBandReference, logisticReference];
  const extra = [...new Set(configured)].filter((n) => !walked.some((m) => m.name === n)).map(registeredVersion);
  const ages: AgeOutcome[] = [];
  for (const ageS of SCORE_AGES) {
    const ageRows = rows.get(ageS)!;
    const steps = walkForward(ageRows, {
      ageBucket: ageS,
      refitEveryS: settings.refitEveryS,
      corpusLimit: settings.corpusLimit,
      minCorpus: settings.minCorpus,
      models: [...walked, ...extra, ...(settings.ablation ? ablations() : [])],
    });
    let r = steps.next();
    if (!r.done) progress.phase(`walk-forward at ${ageS} s`, r.value.total);
    for (; !r.done; r = steps.next()) {
      progress.update(r.value.done);
      await nextMacrotask();
    }
    progress.done();
    const result: WalkForwardResult = r.value;
    const preds = result.predictions;
    ages.push({
      ageS,
      observations: ageRows.length,
      warmup: result.warmup,
      fits: result.fits,
      report: ageReport(ageS, preds),
      models: [...result.byModel].map(([name, p]) => ({ name, report: ageReport(ageS, p), predictions: p, choices: result.choices.get(name) })),
      firstPredictionAt: preds[0]?.observedAt ?? null,
      lastPredictionAt: preds[preds.length - 1]?.observedAt ?? null,
    });
  }
  // Over both ages at once: the rule's unit is the mint, its two ages averaged.
  const byModel = new Map(configured.map((n) => [n, new Map(ages.map((a) => [a.ageS as number, a.models.find((m) => m.name === n)!.predictions]))]));
  const replay = replayPublished(byModel, { rule: SHADOW_PROMOTION_V1, configured, everyMs: DECIDE_EVERY_MS });
  for (const a of ages) {
    const p = replay.predictions.get(a.ageS)!;
    a.models.splice(2, 0, { name: PUBLISHED, report: ageReport(a.ageS, p), predictions: p });
  }
  const promotion = { configured, decisions: replay.decisions, served: replay.served };
  return { dataset: ds.label, settings, span, counts: folder.counts, resolved, unresolved: folder.unresolved, rejected: ds.rejected, ages, promotion };
}
