import type { RunnerNowStore } from '../../db/mint/runner-now-store';
import type { MintTape } from '../../domain/launch/mint-tape';
import { LABEL_VERSION } from '../../domain/launch/outcome-labels';
import { RUNNER_GRID_AGES_S, runnerGridAge, type RunnerGridAge } from '../../domain/scoring/runner-grid';
import type { RunnerOdds } from '../../domain/scoring/runner-model';
import { fitRunnerNowModelSteps, type RunnerNowMetric, type RunnerNowModel } from '../../domain/scoring/runner-now-model';
import { RUNNER_NOW_FEATURE_KEYS, runnerNowFeatures, type RunnerNowFeatures } from '../../domain/scoring/runner-now-features';
import { runStepsAsync } from '../../domain/scoring/stepwise';
import type { Logger } from '../../platform/logger';
import { corpusTag, WARMING_REFIT_S } from './knn-mint-scorer';

/** From-now odds of one mint at one moment, and where they start from. */
export type RunnerFromNow = { odds: RunnerOdds; gridAgeS: RunnerGridAge; ageS: number; priceSol: number; at: Date; modelVersion: string };

export type RunnerNowScorerDeps = {
  store: Pick<RunnerNowStore, 'corpus'>;
  refitEveryS: number;
  corpusLimit: number;
  /** Mints leave the live list at this age: grid ages no live mint is served by are not fitted. */
  liveWindowS: number;
  metric?: RunnerNowMetric;
  log: Logger;
  now: () => number;
};

type Fitted = { model: RunnerNowModel; version: string; fittedAt: number };

const MEMO_PRUNE_EVERY = 4096;
const MEMO_FORGET_MS = 120_000;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Holds one from-now runner model per grid age in this worker's memory and answers for a live mint's current tape
 * without I/O, so the live refresh can ask for every mint at every refresh. Models are refitted in the background
 * (every `refitEveryS`, every WARMING_REFIT_S while warming) and yield to the event loop between chunks, as the
 * grad_prob scorer's do; until an age's first fit lands, that age answers null.
 */
export function createRunnerNowScorer(d: RunnerNowScorerDeps) {
  const ages = RUNNER_GRID_AGES_S.filter((g) => g <= runnerGridAge(d.liveWindowS));
  const fitted = new Map<RunnerGridAge, Fitted>();
  const refitting = new Map<RunnerGridAge, Promise<Fitted>>();

  async function fit(ageS: RunnerGridAge): Promise<Fitted> {
    const rows = await d.store.corpus(ageS, LABEL_VERSION, d.corpusLimit);
    const model = await runStepsAsync(fitRunnerNowModelSteps(rows, { ageS, metric: d.metric }), yieldToEventLoop);
    d.log.info({ age: ageS, corpus: rows.length, version: model.version, status: model.status }, 'runner-now model fitted');
    return { model, version: model.version + corpusTag(rows), fittedAt: d.now() };
  }

  // One fit at a time across the ages: each reads up to `corpusLimit` rows, and five at once would hold five corpora.
  let queue: Promise<unknown> = Promise.resolve();
  function refit(ageS: RunnerGridAge): Promise<Fitted> {
    const running = refitting.get(ageS);
    if (running) return running;
    const p = queue
      .then(() => fit(ageS))
      .then((f) => {
        fitted.set(ageS, f);
        return f;
      })
      .finally(() => refitting.delete(ageS));
    queue = p.catch(() => undefined);
    refitting.set(ageS, p);
    return p;
  }

  // Most live mints do not trade between two refreshes: their features are unchanged, so is their answer, and the
  // neighbour query (the refresh's one real cost) is skipped. Keyed by mint; a refit or any feature change misses.
  const memo = new Map<string, { model: RunnerNowModel; key: string; odds: RunnerOdds | null; seenMs: number }>();
  let sincePrune = 0;
  function memoScore(mint: string, model: RunnerNowModel, features: RunnerNowFeatures, nowMs: number): RunnerOdds | null {
    const key = RUNNER_NOW_FEATURE_KEYS.map((k) => features[k]).join(',');
    const hit = memo.get(mint);
    if (hit && hit.model === model && hit.key === key) {
      hit.seenMs = nowMs;
      return hit.odds;
    }
    const odds = model.score(features);
    memo.set(mint, { model, key, odds, seenMs: nowMs });
    // Mints leave the live window and are never asked for again: forget what was not asked for in a while.
    if (++sincePrune >= MEMO_PRUNE_EVERY) {
      sincePrune = 0;
      for (const [m, e] of memo) if (nowMs - e.seenMs > MEMO_FORGET_MS) memo.delete(m);
    }
    return odds;
  }

  const refitInBackground = (ageS: RunnerGridAge) =>
    void refit(ageS).catch((e) => d.log.warn({ err: e, age: ageS }, 'runner-now refit failed; keeping the previous model'));

  return {
    ages,
    refit,
    startRefitLoop(): () => void {
      for (const a of ages) refitInBackground(a);
      const timer = setInterval(() => {
        for (const a of ages) {
          const f = fitted.get(a);
          const every = !f || f.model.status === 'warming' ? Math.min(WARMING_REFIT_S, d.refitEveryS) : d.refitEveryS;
          if (!f || d.now() - f.fittedAt >= every * 1000) refitInBackground(a);
        }
      }, WARMING_REFIT_S * 1000);
      timer.unref();
      return () => clearInterval(timer);
    },
    /** Odds from `tape`'s current price at `now`; null while its age's model is warming or not fitted yet. */
    fromNow(tape: MintTape, now: Date): RunnerFromNow | null {
      const ageS = Math.max(0, (now.getTime() - tape.create.at.getTime()) / 1000);
      const gridAgeS = runnerGridAge(ageS);
      const f = fitted.get(gridAgeS);
      if (!f) return null;
      const odds = memoScore(tape.create.mint, f.model, runnerNowFeatures(tape, now.getTime()), now.getTime());
      return odds ? { odds, gridAgeS, ageS, priceSol: tape.price, at: now, modelVersion: f.version } : null;
    },
  };
}
export type RunnerNowScorer = ReturnType<typeof createRunnerNowScorer>;
