import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { LaunchHistoryFolder, type ResolvedLaunch } from '../../domain/scoring/launch-histories';
import type { SyntheticHistoryPlan } from '../../domain/history/synthetic-history-plan';
import type { HistoryStore } from '../../db/mint/history-store';
import type { Logger } from '../../platform/logger';
import { createMarketSimulator } from '../simulator/market-simulator';
import { isSmartWallet } from '../../domain/wallets/smart-score';

export type SeedOutcome = { runId: string; skipped: boolean; mints: number; graduated: number; ms: number };

/** Launches written per batch: the folder resolves mints a horizon late, so batches follow the generator's clock. */
const FLUSH_EVERY = 1_000;

/**
 * Generates the plan's window of simulated market with the production folder (features at each scoring age and
 * labels at the horizon, exactly as the lifecycle would have logged them) and writes it as synthetic history.
 * Launches stop at the window's end and the launched mints play out to their own end (dead, graduated and
 * migrated, or aged out), so every label is exact: none is cut short, none is left out. Mayhem launches are off
 * (never scored, and their agents would trade for a day). Idempotent: a completed run is skipped, an interrupted
 * one is written again over itself.
 */
export async function seedSyntheticHistory(plan: SyntheticHistoryPlan, store: HistoryStore, log: Logger, now = () => new Date()): Promise<SeedOutcome> {
  const started = performance.now();
  if (await store.isComplete(plan.runId)) return { runId: plan.runId, skipped: true, mints: 0, graduated: 0, ms: 0 };
  await store.begin(plan.runId, 'synthetic', now());
  log.info({ runId: plan.runId, from: new Date(plan.fromMs), to: new Date(plan.toMs) }, 'generating seeded history');

  const market = createMarketSimulator({
    seed: plan.seed,
    // A run of its own (a past time no live run can have), so none of its mints is ever a live mint.
    run: plan.fromMs,
    startMs: plan.fromMs,
    launchesUntilMs: plan.toMs,
    launchesPerSecond: plan.launchesPerS,
    graduationShare: plan.graduationShare,
    mayhemShare: 0,
  });
  const folder = new LaunchHistoryFolder(plan.horizonS, isSmartWallet);
  let pending: ResolvedLaunch[] = [];
  let graduated = 0;
  const flush = async () => {
    for (const l of pending) if (l.outcome.graduated) graduated++;
    await store.insert(plan.runId, 'synthetic', pending);
    pending = [];
  };
  let n = 0;
  // Every event is at most one horizon after its mint's creation, and the market empties before that.
  for (const e of market.events(plan.fromMs, plan.toMs + plan.horizonS * 1000)) {
    pending.push(...folder.push(e));
    if (pending.length >= FLUSH_EVERY) await flush();
    // Let the daemon's heartbeat and signals through while the generator runs.
    if (++n % 8192 === 0) await nextMacrotask();
  }
  // The market is empty: no mint will ever trade again, so each label is final now.
  pending.push(...folder.resolveQuiet(Infinity));
  await flush();
  const mints = await store.complete(plan.runId, now());
  const ms = Math.round(performance.now() - started);
  log.info({ runId: plan.runId, mints, graduated, ms }, 'seeded history written');
  return { runId: plan.runId, skipped: false, mints, graduated, ms };
}
