import { ApplicationFailure } from '@temporalio/activity';
import { WeightBudget } from '../../clients/hyperliquid/weight-budget';
import { PumpEventDecoder } from '../../clients/solana/pump/pump-event-decoder';
import { loadPumpIdl } from '../../clients/solana/pump/pump-idl';
import { createSolanaRpcClient, type SolanaRpcClient } from '../../clients/solana/solana-rpc-client';
import { createBackfillOnStartStore } from '../../db/history/backfill-on-start-store';
import { createBackfillOutcomeStore } from '../../db/history/backfill-outcome-store';
import { createBackfillStore } from '../../db/history/backfill-store';
import { createHistoryStore } from '../../db/mint/history-store';
import { createWalletIndexWriter } from '../../db/wallets/wallet-index-writer';
import { onStartBackfill } from '../../domain/history/backfill-on-start';
import { DEFAULT_TIMING } from '../../workflows/mint/mint-lifecycle-contract';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createBackfillActivities } from './backfill-activities';
import { startBackfillOnStart } from './backfill-on-start';

/**
 * The chain backfill's activities. One RPC client per worker process, so every backfill page of the process spends
 * from one requests-per-second budget (a token bucket holding one second of requests; a 429 pauses it for the
 * answer's Retry-After). With a backfill node configured, the worker's start backfills the last
 * HISTORY_BACKFILL_ON_START_H hours once (backfill-on-start.ts).
 */
export const historyActivities = defineActivityArea({
  name: 'history',
  deps: ({ cfg, db, now }: Pick<WorkerContext, 'cfg' | 'db' | 'now'>) => {
    const b = cfg.history.backfill;
    let rpc: SolanaRpcClient | null = null;
    let decoder: PumpEventDecoder | null = null;
    return {
      store: createBackfillStore(db),
      onStartStore: createBackfillOnStartStore(db),
      history: createHistoryStore(db),
      outcomes: createBackfillOutcomeStore(db),
      walletIndexWriter: createWalletIndexWriter(db),
      horizonS: DEFAULT_TIMING.resolveAfterS,
      rpc: () =>
        (rpc ??= createSolanaRpcClient(b.rpcUrl ?? cfg.ingest.solanaRpcUrl, {
          timeoutMs: 30_000,
          budget: new WeightBudget({ weightPerMinute: b.requestsPerS * 60, burstFraction: 1 / 60 }),
        })),
      decoder: () => {
        if (!cfg.ingest.pumpIdlPath)
          throw ApplicationFailure.nonRetryable('the backfill decodes with the launchpad IDL: set PUMP_IDL_PATH', 'HistoryBackfillRefused');
        return (decoder ??= new PumpEventDecoder(loadPumpIdl(cfg.ingest.pumpIdlPath)));
      },
      dailyRequests: b.dailyRequests,
      concurrency: b.concurrency,
      callAttempts: 6,
      retry: { baseMs: 500, maxMs: 30_000 },
      now,
    };
  },
  activities: (d) => createBackfillActivities(d),
  start: async (d, { cfg, temporal, log }) => {
    const b = cfg.history.backfill;
    await startBackfillOnStart({
      store: d.onStartStore,
      temporal,
      taskQueue: cfg.temporal.taskQueue,
      pageSize: b.pageSize,
      wanted: onStartBackfill({ hours: b.onStartH, nowMs: d.now().getTime(), lagS: b.lagS, chunkS: b.chunkS }),
      idlConfigured: !!cfg.ingest.pumpIdlPath,
      log,
      now: d.now,
    });
    return () => undefined;
  },
});
