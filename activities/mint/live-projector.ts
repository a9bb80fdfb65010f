import type { IncrementalLiveModel } from '../../db/mint/incremental-live-model';
import type { LiveReadModel, MintState } from '../../db/mint/live-read-model';
import { LIVE_DELAYED_SNAPSHOT, LIVE_SNAPSHOT, SMART_MONEY_SNAPSHOT, type LiveStore } from '../../db/mint/live-store';
import type { RunnerNowStore } from '../../db/mint/runner-now-store';
import { FREE_LIVE_DELAY_S } from '../../domain/access/operation-tiers';
import { inCompositeWindow } from '../../domain/signals/composite-score';
import { createLiveDelayLine } from '../../domain/mint/live-delay-line';
import { smartMoneyActive } from '../../domain/wallets/smart-money';
import type { SmartCriteria } from '../../domain/wallets/smart-score';
import { smartMoneyFields } from '../../domain/wallets/wallet-views';
import type { RunnerFromNow, RunnerNowScorer } from '../../models/mint/runner-now-scorer';
import type { CompositeEvaluator } from '../../models/signals/composite-evaluator';
import type { AlertEvaluator } from '../alerts/alert-evaluator';

export type LiveProjectorDeps = {
  /** The live read model: tracked mints kept in memory, and how they are enriched. */
  liveModel: IncrementalLiveModel;
  readModel: LiveReadModel;
  liveStore: LiveStore;
  /** Most entries the snapshot keeps (best first). */
  liveMaxEntries: number;
  refreshIntervalS: number;
  /** What counts as a smart wallet (stated in the smart-money snapshot). */
  smartCriteria: SmartCriteria;
  /** The composite signal, evaluated at every refresh over the same states and when woken over the mints that traded (absent: not evaluated). */
  compositeEvaluator?: Pick<CompositeEvaluator, 'evaluate' | 'evaluateCrosses'>;
  /** The alert rules (activities/alerts), evaluated at every refresh over the same states (absent: not evaluated). */
  alertEvaluator?: Pick<AlertEvaluator, 'evaluate'>;
  /**
   * Runner odds from each mint's current price, asked for every tracked mint at every refresh (absent: the odds logged
   * with its score, while shown); the first odds of each mint in each grid-age band the list publishes are logged
   * for forward accuracy.
   */
  runnerNow?: { scorer: Pick<RunnerNowScorer, 'fromNow'>; store: Pick<RunnerNowStore, 'logPublished'> };
  /** Resolved mints in the scoring corpus (`n_indexed_curves`, for the published CLI); a count, so read once a minute. */
  indexedCurves: () => Promise<number>;
  now: () => Date;
};

/** How long the corpus count is reused: a count of mint_outcomes every refresh would cost more than the refresh. */
const INDEXED_CURVES_TTL_MS = 60_000;

/**
 * Keeps the live list current: the incremental live model folds new trades into the tracked mints, the read model
 * enriches them, and one pre-serialized snapshot is written that the API serves as is. State lives in this worker's
 * memory and is rebuilt from Postgres after a restart, bounded by the live window.
 */
export function createLiveProjector(d: LiveProjectorDeps) {
  const delayLine = createLiveDelayLine(FREE_LIVE_DELAY_S, 15);
  let indexed: { n: number; at: number } | undefined;
  const indexedCurves = async (now: Date) => {
    if (!indexed || now.getTime() - indexed.at > INDEXED_CURVES_TTL_MS) indexed = { n: await d.indexedCurves(), at: now.getTime() };
    return indexed.n;
  };

  /** The listed mints with at least one smart wallet among their top buyers, in smart_money_active's order. */
  async function writeSmartMoney(now: Date, detailed: Awaited<ReturnType<LiveReadModel['enrichWithSmartMoney']>>, listed: readonly { mint: string }[]) {
    const shown = new Set(listed.map((m) => m.mint));
    const withSmart = detailed
      .filter((e) => shown.has(e.mint.mint) && e.smartMoney.smartMoneyIn > 0)
      .map((e) => ({
        mint: e.mint.mint,
        gradProb: e.mint.grad_prob,
        smartMoneyIn: e.smartMoney.smartMoneyIn,
        body: { ...e.mint, ...smartMoneyFields(e.smartMoney) },
      }));
    const mints = smartMoneyActive(withSmart, { minSmart: 1, limit: withSmart.length }).map((m) => m.body);
    const version = detailed[0]?.smartMoney.scoreVersion ?? null;
    const body = {
      generated_at: now.toISOString(),
      min_total: d.smartCriteria.minTotal,
      min_smart_score: d.smartCriteria.minScore,
      smart_score_version: version,
      count: mints.length,
      mints,
    };
    await d.liveStore.writeSnapshot(SMART_MONEY_SNAPSHOT, JSON.stringify(body), mints.length, now);
  }

  /** From-now odds of every tracked mint still on the curve (CPU only: the models are in this worker's memory). */
  function runnerOddsNow(states: readonly MintState[], now: Date) {
    const out = new Map<string, RunnerFromNow>();
    if (!d.runnerNow) return out;
    for (const s of states) {
      if (s.row.graduatedAt !== null) continue;
      const r = d.runnerNow.scorer.fromNow(s.tape, now);
      if (r) out.set(s.row.mint, r);
    }
    return out;
  }

  /** Grid ages already logged per mint by this worker; a restart re-offers them and the store keeps the first. */
  const loggedBands = new Map<string, Set<number>>();
  async function logPublishedOdds(listed: readonly { mint: string }[], fromNow: ReadonlyMap<string, RunnerFromNow>) {
    if (!d.runnerNow) return;
    const fresh = listed.flatMap((m) => {
      const r = fromNow.get(m.mint);
      return r && !loggedBands.get(m.mint)?.has(r.gridAgeS) ? [{ mint: m.mint, ...r }] : [];
    });
    await d.runnerNow.store.logPublished(
      fresh.map((r) => ({
        mint: r.mint,
        gridAgeS: r.gridAgeS,
        ageS: r.ageS,
        publishedAt: r.at,
        priceSol: r.priceSol,
        odds: r.odds,
        modelVersion: r.modelVersion,
      })),
    );
    for (const r of fresh) loggedBands.set(r.mint, (loggedBands.get(r.mint) ?? new Set()).add(r.gridAgeS));
    // A mint the refresh no longer answers for (it left the window or graduated) is never offered again.
    for (const mint of loggedBands.keys()) if (!fromNow.has(mint)) loggedBands.delete(mint);
  }

  /** Each tracked mint's trade count when the composite signal last saw it: what moved since is what a wake evaluates. */
  let evaluatedTrades = new Map<string, number>();

  async function refresh(): Promise<{
    version: number;
    tracked: number;
    listed: number;
    tradesApplied: number;
    composite: { at: number; threshold: number | null; crosses: number } | null;
  }> {
    const { states, tradesApplied } = await d.liveModel.refresh(d.now());
    // Read after the fold, which takes every trade committed by then: the list, the crosses and the alert fires made
    // from these states are never stamped before the commit of a trade they saw (as in evaluateNewTrades).
    const now = d.now();
    const fromNow = runnerOddsNow(states, now);
    const detailed = await d.readModel.enrichWithSmartMoney(states, now, { ownOutcomes: false, runnerFromNow: (s) => fromNow.get(s.row.mint) ?? null });
    const entries = detailed.map((e) => e.mint);
    // The dashboard hides flagged mints; /probe still returns them.
    const listed = entries.filter((e) => e.hide_reason === null);
    listed.sort((a, b) => (b.grad_prob ?? -1) - (a.grad_prob ?? -1) || b.created_at.localeCompare(a.created_at));
    const top = listed.slice(0, d.liveMaxEntries);
    const list = {
      generated_at: now.toISOString(),
      refresh_interval_s: d.refreshIntervalS,
      delay_s: 0,
      total_tracked: listed.length,
      // The published CLI's names (README: accommodations for existing clients).
      n_tracked_total: listed.length,
      n_indexed_curves: await indexedCurves(now),
      count: top.length,
      mints: top,
    };
    const version = await d.liveStore.writeSnapshot(LIVE_SNAPSHOT, JSON.stringify(list), top.length, now);
    await writeSmartMoney(now, detailed, top);
    await logPublishedOdds(top, fromNow);
    const due = delayLine.offer(now, () => ({ count: top.length, body: JSON.stringify({ ...list, delay_s: FREE_LIVE_DELAY_S }) }));
    if (due) await d.liveStore.writeSnapshot(LIVE_DELAYED_SNAPSHOT, due.body, due.count, due.builtAt);
    // Last, so a failure here never holds back the live list; a retried refresh evaluates again (idempotent writes).
    // In the result (so in the projector's history) for operators and bench:signals: the threshold each refresh left,
    // which tells a cross made by a falling threshold from one made by a trade.
    let composite: { at: number; threshold: number | null; crosses: number } | null = null;
    if (d.compositeEvaluator) {
      const r = await d.compositeEvaluator.evaluate(
        now,
        detailed.map((e, k) => ({ state: states[k]!, mint: e.mint, smartMoneyIn: e.smartMoney.smartMoneyIn })),
      );
      evaluatedTrades = new Map(states.map((s) => [s.row.mint, s.tape.trades]));
      composite = { at: now.getTime(), threshold: r.threshold.value, crosses: r.crosses };
    }
    if (d.alertEvaluator)
      await d.alertEvaluator.evaluate(
        now,
        detailed.map((e, k) => ({ state: states[k]!, mint: e.mint })),
      );
    return { version, tracked: states.length, listed: top.length, tradesApplied, composite };
  }

  /**
   * Woken by ingest between refreshes: folds the trades committed since (the same incremental model, so the next
   * refresh folds only what came after) and evaluates the composite signal over the mints inside its window whose
   * tape moved since it last saw them. Only those are enriched, so a wake costs a few mints' reads, not the list's.
   * The live list and the alert rules wait for the refresh.
   */
  async function evaluateNewTrades(): Promise<{ tradesApplied: number; evaluated: number; crosses: number; delivered: number }> {
    const { states, tradesApplied } = await d.liveModel.refresh(d.now());
    // The evaluation's time is read after the fold, which takes every trade committed by then: a cross is never
    // stamped (crossed_at, its ledger leaf's time) before the commit of a trade it was made from.
    const now = d.now();
    if (!d.compositeEvaluator) return { tradesApplied, evaluated: 0, crosses: 0, delivered: 0 };
    const moved = states.filter((s) => evaluatedTrades.get(s.row.mint) !== s.tape.trades && inCompositeWindow((now.getTime() - s.row.at.getTime()) / 1000));
    const detailed = moved.length ? await d.readModel.enrichWithSmartMoney(moved, now, { ownOutcomes: false }) : [];
    const r = await d.compositeEvaluator.evaluateCrosses(
      now,
      detailed.map((e, k) => ({ state: moved[k]!, mint: e.mint, smartMoneyIn: e.smartMoney.smartMoneyIn })),
    );
    for (const s of moved) evaluatedTrades.set(s.row.mint, s.tape.trades);
    return { tradesApplied, evaluated: moved.length, crosses: r.crosses, delivered: r.delivered };
  }

  // One queue for both: overlapping runs on one worker (a retried activity) would fold the same trades twice.
  let running: Promise<unknown> = Promise.resolve();
  const serialised =
    <T>(f: () => Promise<T>) =>
    (): Promise<T> => {
      const next = running.then(f, f);
      running = next.catch(() => undefined);
      return next;
    };

  return { refreshLiveSnapshot: serialised(refresh), evaluateNewTrades: serialised(evaluateNewTrades) };
}
export type LiveProjectorActivities = ReturnType<typeof createLiveProjector>;
