import type { IncrementalLiveModel } from '../../db/live/incremental-live-model';
import type { LiveReadModel } from '../../db/live/live-read-model';
import type { MintState } from '../../db/mint/mint-states';
import type { RunnerNowStore } from '../../db/mint/runner-now-store';
import { LIVE_DELAYED_SNAPSHOT, LIVE_SNAPSHOT, type LiveStore } from '../../db/live/live-store';
import { FREE_LIVE_DELAY_S } from '../../domain/access/operation-tiers';
import { createLiveDelayLine } from '../../domain/live/live-delay-line';
import type { RunnerFromNow, RunnerNowScorer } from '../../models/mint/runner-now-scorer';
import type { LiveConsumers, LiveMint } from './live-consumers';

export type LiveProjectorDeps = {
  /** The live read model: tracked mints kept in memory, and how they are enriched. */
  liveModel: IncrementalLiveModel;
  readModel: LiveReadModel;
  liveStore: LiveStore;
  /** Most entries the snapshot keeps (best first). */
  liveMaxEntries: number;
  refreshIntervalS: number;
  /** What other areas run on each tick (the composite signal, alert rules, the smart-money list), registered by them. */
  consumers: LiveConsumers;
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
 * enriches them, and one pre-serialized snapshot is written that the API serves as is; then the consumers other
 * areas registered run over the same states (live-consumers.ts). State lives in this worker's memory and is rebuilt
 * from Postgres after a restart, bounded by the live window.
 */
export function createLiveProjector(d: LiveProjectorDeps) {
  const delayLine = createLiveDelayLine(FREE_LIVE_DELAY_S, 15);
  let indexed: { n: number; at: number } | undefined;
  const indexedCurves = async (now: Date) => {
    if (!indexed || now.getTime() - indexed.at > INDEXED_CURVES_TTL_MS) indexed = { n: await d.indexedCurves(), at: now.getTime() };
    return indexed.n;
  };
  const enrich = async (states: readonly MintState[], now: Date, fromNow?: ReadonlyMap<string, RunnerFromNow>): Promise<LiveMint[]> =>
    (await d.readModel.enrichWithSmartMoney(states, now, { ownOutcomes: false, runnerFromNow: (s) => fromNow?.get(s.row.mint) ?? null })).map((e, k) => ({
      state: states[k]!,
      ...e,
    }));

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

  /** Per consumer with `onTrades`: each tracked mint's trade count when it last saw it; what moved since is what a wake hands it. */
  const seenTrades = new Map<string, Map<string, number>>();

  async function refresh(): Promise<{ version: number; tracked: number; listed: number; tradesApplied: number }> {
    const { states, tradesApplied } = await d.liveModel.refresh(d.now());
    // Read after the fold, which takes every trade committed by then: the list and whatever the consumers make from
    // these states are never stamped before the commit of a trade they saw (as in evaluateNewTrades).
    const now = d.now();
    const fromNow = runnerOddsNow(states, now);
    const detailed = await enrich(states, now, fromNow);
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
    await logPublishedOdds(top, fromNow);
    const due = delayLine.offer(now, () => ({ count: top.length, body: JSON.stringify({ ...list, delay_s: FREE_LIVE_DELAY_S }) }));
    if (due) await d.liveStore.writeSnapshot(LIVE_DELAYED_SNAPSHOT, due.body, due.count, due.builtAt);
    // Last, so a failure here never holds back the live list; a retried refresh runs them again (idempotent writes).
    const result = { version, tracked: states.length, listed: top.length, tradesApplied };
    for (const c of d.consumers.all()) {
      if (!c.onRefresh) continue;
      Object.assign(result, await c.onRefresh(detailed, now, top));
      if (c.onTrades) seenTrades.set(c.area, new Map(states.map((s) => [s.row.mint, s.tape.trades])));
    }
    return result;
  }

  /**
   * Woken by ingest between refreshes: folds the trades committed since (the same incremental model, so the next
   * refresh folds only what came after) and hands each consumer with `onTrades` the mints it wants whose tape moved
   * since it last saw them. Only those are enriched, so a wake costs a few mints' reads, not the list's. The live
   * list waits for the refresh.
   */
  async function evaluateNewTrades(): Promise<{ tradesApplied: number; evaluated: number }> {
    const { states, tradesApplied } = await d.liveModel.refresh(d.now());
    // Read after the fold, which takes every trade committed by then: nothing a consumer makes (a composite cross,
    // its ledger leaf) is stamped before the commit of a trade it was made from.
    const now = d.now();
    const result = { tradesApplied, evaluated: 0 };
    for (const c of d.consumers.all()) {
      if (!c.onTrades) continue;
      const seen = seenTrades.get(c.area) ?? new Map<string, number>();
      const moved = states.filter((s) => seen.get(s.row.mint) !== s.tape.trades && c.onTrades!.wants(s, now));
      const mints = moved.length ? await enrich(moved, now) : [];
      Object.assign(result, await c.onTrades.run(mints, now));
      for (const s of moved) seen.set(s.row.mint, s.tape.trades);
      seenTrades.set(c.area, seen);
      result.evaluated += moved.length;
    }
    return result;
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
