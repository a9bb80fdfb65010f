import { ApplicationFailure } from '@temporalio/activity';
import { heartbeat } from '../activity-heartbeat';
import type { PumpEventDecoder } from '../../clients/solana/pump/pump-event-decoder';
import { SolanaRpcError, type SolanaRpcClient } from '../../clients/solana/solana-rpc-client';
import type { BackfillOutcomeStore } from '../../db/history/backfill-outcome-store';
import type { BackfillStore } from '../../db/history/backfill-store';
import type { HistoryStore } from '../../db/mint/history-store';
import type { WalletIndexWriter } from '../../db/wallets/wallet-index-writer';
import { LIVE_TABLES } from '../../db/wallets/wallet-tables';
import { LaunchHistoryFolder } from '../../domain/scoring/launch-histories';
import { classifyPage, nextUtcDayMs, utcDay } from '../../domain/history/backfill-range';
import type { LaunchEvent } from '../../domain/launch/launch-events';
import { backoffDelayMs, type BackoffOptions } from '../../platform/net/backoff';
import { RPC_BUDGET_EXHAUSTED, type BackfillPageInput, type BackfillPageOutcome } from '../../workflows/history/history-backfill-contract';
import { isSmartWallet } from '../../domain/wallets/smart-score';

export type BackfillDeps = {
  store: BackfillStore;
  history: HistoryStore;
  outcomes: BackfillOutcomeStore;
  /** The wallet area's idempotent writer: resolved backfilled mints are applied to the live index as they are folded. */
  walletIndexWriter: WalletIndexWriter;
  /** The label horizon (the lifecycle's resolveAfterS). */
  horizonS: number;
  /** Built at first use: a worker without the IDL configured runs every other area. */
  rpc: () => SolanaRpcClient;
  decoder: () => PumpEventDecoder;
  dailyRequests: number;
  concurrency: number;
  /** Attempts per RPC call inside a page (5xx, node behind, a transaction the node does not return yet). */
  callAttempts: number;
  retry: BackoffOptions;
  now: () => Date;
};

/** The `source` of every backfilled row (mints, trades, graduations). */
export const BACKFILL_SOURCE = 'backfill';
/** Mints per wallet-index application (one transaction each, its buyers' rows locked meanwhile). */
const WALLET_BATCH = 100;

export function createBackfillActivities(d: BackfillDeps) {
  /** Retries what passes with backoff, honouring Retry-After; a 429 waits in the client's budget, which it paused. */
  async function withRetry<T>(what: string, fn: () => Promise<T | null>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      let wait: number;
      try {
        const r = await fn();
        if (r !== null) return r;
        // Listed but not returned: a node behind the one that listed it (a gap in its answers).
        wait = backoffDelayMs(attempt, d.retry);
      } catch (e) {
        if (e instanceof SolanaRpcError && !e.retryable) throw ApplicationFailure.nonRetryable(e.message, 'HistoryBackfillRefused');
        if (!(e instanceof SolanaRpcError) || attempt + 1 >= d.callAttempts) throw e;
        wait = e.code === 429 ? 0 : Math.max(e.retryAfterMs ?? 0, backoffDelayMs(attempt, d.retry));
      }
      if (attempt + 1 >= d.callAttempts) throw new Error(`${what}: not returned after ${d.callAttempts} attempts`);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  }

  return {
    async beginBackfillChunk(i: { chunkId: string; rangeId: string; fromMs: number; toMs: number }) {
      return d.store.beginChunk({ chunkId: i.chunkId, rangeId: i.rangeId, fromAt: new Date(i.fromMs), toAt: new Date(i.toMs) }, d.now());
    },

    /**
     * Folds the chunk's backfilled mints whose horizon the range covers (created at least a horizon before the
     * range's end) into labelled history (`history_observations`, source `backfill`): the features production would
     * have logged at each scoring age and the labels at the horizon, by the same folder as the seeded history. Their
     * outcomes are then recorded as the lifecycle records its own (creator records follow) and applied to the live
     * wallet index by the wallet area's writer, so wallet records and leaderboards count them without a rebuild.
     * Mints the live feed stored are its own predictions and are left out. Idempotent per (mint, age), per mint and
     * per (mint, wallet): a retried fold changes nothing twice.
     */
    async foldBackfilledChunk(i: { chunkId: string; fromMs: number; toMs: number; rangeToMs: number }): Promise<{ mints: number; walletBuyers: number }> {
      const until = Math.min(i.toMs, i.rangeToMs - d.horizonS * 1000);
      if (until <= i.fromMs) return { mints: 0, walletBuyers: 0 };
      const events = await d.store.storedEvents(new Date(i.fromMs), new Date(until), { source: BACKFILL_SOURCE });
      const folder = new LaunchHistoryFolder(d.horizonS, isSmartWallet);
      const resolved = events.flatMap((e) => folder.push(e));
      // Every mint here is created a horizon before the range's end, so its whole horizon was read: final labels.
      resolved.push(...folder.resolveQuiet(Infinity));
      await d.history.begin(i.chunkId, 'backfill', d.now());
      await d.history.insert(i.chunkId, 'backfill', resolved);
      heartbeat({ folded: resolved.length });
      await d.outcomes.record(resolved, d.now());
      let walletBuyers = 0;
      for (let n = 0; n < resolved.length; n += WALLET_BATCH) {
        const batch = resolved.slice(n, n + WALLET_BATCH).map((l) => ({ mint: l.mint, horizonAt: l.resolvedAt }));
        walletBuyers += (await d.walletIndexWriter.apply(LIVE_TABLES, batch)).buyers;
        heartbeat({ folded: resolved.length, walletMints: n + batch.length });
      }
      return { mints: await d.history.complete(i.chunkId, d.now()), walletBuyers };
    },

    async completeBackfillChunk(i: { chunkId: string; lastSignature: string | null }): Promise<void> {
      await d.store.completeChunk(i.chunkId, i.lastSignature, d.now());
    },

    /**
     * One page of signatures before `before`: the successful transactions of the chunk's time range in it are fetched
     * (a few at a time, within the request budget), decoded with the launchpad IDL and stored with the page's
     * progress in one transaction. Refused before any request when the page could exceed today's cap.
     */
    async backfillHistoryPage(i: BackfillPageInput): Promise<BackfillPageOutcome> {
      const day = utcDay(d.now().getTime());
      if ((await d.store.requestsOn(day)) + i.pageSize + 1 > d.dailyRequests)
        throw ApplicationFailure.nonRetryable(`the daily request cap (${d.dailyRequests}) is spent`, RPC_BUDGET_EXHAUSTED, nextUtcDayMs(d.now().getTime()));
      const rpc = d.rpc();
      const decoder = d.decoder();
      let requests = 0;
      const counted = <T>(fn: () => Promise<T>) => {
        requests++;
        return fn();
      };
      let stored = false;
      try {
        const page = await withRetry('getSignaturesForAddress', () =>
          counted(() => rpc.getSignaturesForAddress(decoder.programId, { before: i.before ?? undefined, limit: i.pageSize })),
        );
        const c = classifyPage(page, i, i.pageSize, i.before);
        const events: LaunchEvent[] = [];
        let decoded = 0;
        const queue = [...c.fetch];
        const fetchOne = async () => {
          for (let sig = queue.shift(); sig !== undefined; sig = queue.shift()) {
            const s = sig;
            const tx = await withRetry(`getTransaction ${s}`, () => counted(() => rpc.getTransactionLogs(s)));
            events.push(...decoder.decodeTransaction(tx, { source: BACKFILL_SOURCE, receivedAt: tx.blockTime ?? new Date(i.toMs) }).events);
            decoded++;
            heartbeat({ page: i.page, decoded });
          }
        };
        await Promise.all(Array.from({ length: Math.min(d.concurrency, Math.max(1, queue.length)) }, fetchOne));
        const row = {
          chunkId: i.chunkId,
          page: i.page,
          beforeSignature: i.before,
          lastSignature: c.cursor,
          signaturesSeen: page.length,
          inRange: c.fetch.length,
          transactionsDecoded: decoded,
          oldestBlockTime: c.oldestMs === null ? null : new Date(c.oldestMs),
        };
        const w = await d.store.storePage(row, events, requests, d.now(), day);
        stored = true;
        return {
          cursor: c.cursor,
          done: c.done,
          oldestMs: c.oldestMs,
          totals: {
            pages: 1,
            signaturesSeen: page.length,
            inRange: c.fetch.length,
            transactionsDecoded: decoded,
            launches: w.launches,
            trades: w.trades,
            graduations: w.graduations,
            rowsWritten: w.rowsWritten,
            requests,
          },
        };
      } finally {
        // A failed attempt spent its requests too.
        if (!stored) await d.store.addRequests(day, requests).catch(() => undefined);
      }
    },
  };
}
export type BackfillActivities = ReturnType<typeof createBackfillActivities>;
