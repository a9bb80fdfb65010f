import { continueAsNew, proxyActivities, setHandler, upsertMemo, workflowInfo, type RetryPolicy } from '@temporalio/workflow';
import type { WalletRebuildActivities } from '../../activities/wallets/wallet-rebuild-activities';
import { walletRebuildProgressQuery, type WalletRebuildInput, type WalletRebuildProgress } from './wallet-rebuild-contract';
import { nowMs } from '../workflow-time';

// Every step is idempotent (a batch re-applied changes nothing) and the database may be busy: keep trying.
const retry: RetryPolicy = { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute' };
const batches = proxyActivities<WalletRebuildActivities>({ startToCloseTimeout: '15 minutes', heartbeatTimeout: '2 minutes', retry });
// Index builds and the catch-up scale with the history; they heartbeat while they run.
const long = proxyActivities<WalletRebuildActivities>({ startToCloseTimeout: '6 hours', heartbeatTimeout: '1 minute', retry });

/**
 * Rebuilds the wallet index from the trades table beside the live one (docs/wallet-index.md §7): takes the `_next`
 * tables, replays every resolved mint in creation order one batch per activity, builds the leaderboard indexes,
 * catches up with what resolutions applied meanwhile, swaps the new tables in and publishes its score version, then
 * refreshes the rank snapshot. The API serves the live tables throughout. Progress is the `progress` query and the
 * workflow's memo (both in the Temporal UI), and each batch's heartbeat; the run continues as new every
 * `batchesPerRun` batches (or when Temporal suggests it), carrying its progress.
 */
export async function rebuildWalletIndex(input: WalletRebuildInput): Promise<WalletRebuildProgress> {
  const p: WalletRebuildProgress = input.progress
    ? { ...input.progress, runs: input.progress.runs + 1 }
    : {
        phase: 'preparing',
        scoreVersion: null,
        totalMints: 0,
        mintsDone: 0,
        buyers: 0,
        batches: 0,
        cursor: null,
        runs: 1,
        caughtUp: 0,
        wallets: null,
        startedAt: new Date(nowMs()).toISOString(),
        finishedAt: null,
      };
  setHandler(walletRebuildProgressQuery, () => p);
  const publish = () =>
    upsertMemo({
      progress: {
        phase: p.phase,
        scoreVersion: p.scoreVersion,
        mints: `${p.mintsDone} / ${p.totalMints}`,
        batches: p.batches,
        cursor: p.cursor?.createdAt ?? null,
        runs: p.runs,
      },
    });
  publish();

  if (p.phase === 'preparing') {
    const r = await batches.prepareWalletRebuild({ rebuildId: input.rebuildId, scoreVersion: input.scoreVersion });
    Object.assign(p, { phase: 'replaying', scoreVersion: r.scoreVersion, totalMints: r.totalMints });
    publish();
  }

  let thisRun = 0;
  while (p.phase === 'replaying') {
    if (thisRun >= input.batchesPerRun || workflowInfo().continueAsNewSuggested) await continueAsNew<typeof rebuildWalletIndex>({ ...input, progress: p });
    const r = await batches.rebuildWalletBatch({
      rebuildId: input.rebuildId,
      after: p.cursor,
      limit: input.batchMints,
      defaultHorizonS: input.defaultHorizonS,
    });
    thisRun++;
    p.batches++;
    p.mintsDone += r.mints;
    p.buyers += r.buyers;
    p.cursor = r.cursor;
    if (r.done) p.phase = 'indexing';
    publish();
  }

  const scoreVersion = p.scoreVersion!;
  if (p.phase === 'indexing') {
    await long.indexWalletRebuild({ rebuildId: input.rebuildId, scoreVersion });
    p.phase = 'swapping';
    publish();
  }
  if (p.phase === 'swapping' || p.phase === 'catching_up') {
    const r = await long.swapWalletRebuild({ rebuildId: input.rebuildId, scoreVersion });
    Object.assign(p, { phase: 'ranking', caughtUp: r.caughtUp, wallets: r.wallets });
    publish();
  }
  if (p.phase === 'ranking') {
    await long.refreshWalletRanks({ scoreVersion });
    Object.assign(p, { phase: 'done', finishedAt: new Date(nowMs()).toISOString() });
    publish();
  }
  return p;
}
