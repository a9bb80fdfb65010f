import { ApplicationFailure } from '@temporalio/activity';
import { DriftFileError, type createDriftHistoricalClient } from '../../clients/drift/drift-historical-client';
import { driftFileKey, DriftFileRefError } from '../../clients/drift/drift-file-key';
import type { ExchangeAImportStore } from '../../db/perps/exchange-a-import-store';
import type { ExchangeATraderStore, MarketTrade } from '../../db/perps/exchange-a-trader-store';
import { driftTraderStats } from '../../domain/perps/drift-trader-stats';
import type { DriftFileInput, DriftFileOutcome } from '../../workflows/perps/drift-import-contract';
import { heartbeat } from '../activity-heartbeat';

export type DriftImportDeps = {
  drift: ReturnType<typeof createDriftHistoricalClient>;
  importStore: ExchangeAImportStore;
  traderStore: ExchangeATraderStore;
  now: () => Date;
};

export function createDriftImportActivities(d: DriftImportDeps) {
  return {
    /**
     * Imports one day file of a market in one transaction (see exchange-a-import-store.ts). A file already imported
     * is skipped without reading it, unless `refresh`; then the same checksum changes nothing and a new one replaces
     * the file's rows. A day without a file is recorded missing; a malformed file is recorded and fails for good.
     */
    async importDriftFile(input: DriftFileInput): Promise<DriftFileOutcome> {
      const ref = { kind: 'market' as const, market: input.market, date: input.date };
      let key: string;
      try {
        key = driftFileKey(ref);
      } catch (e) {
        if (e instanceof DriftFileRefError) throw ApplicationFailure.nonRetryable(e.message, 'DriftFileRefused');
        throw e;
      }
      const known = await d.importStore.fileStatus(key);
      if (!input.refresh && known?.status === 'imported') return { key, status: 'skipped', rows: known.rows, sha256: known.sha256 };

      const writer = await d.importStore.openFileImport({ fileKey: key, market: input.market, date: input.date });
      let rows = 0;
      try {
        const read = await d.drift.readTradeFile(ref, async (batch) => {
          await writer.insert(batch);
          rows += batch.length;
          heartbeat({ key, rows });
        });
        if (read.status === 'missing') {
          await writer.rollback();
          // A file that was there and is gone now keeps what it gave; the bucket's history does not change.
          if (known?.status !== 'imported') await d.importStore.recordMissing({ fileKey: key, market: input.market, date: input.date, at: d.now() });
          return { key, status: 'missing', rows: 0, sha256: null };
        }
        if (writer.previous?.status === 'imported' && writer.previous.sha256 === read.sha256) {
          await writer.rollback();
          return { key, status: 'unchanged', rows: writer.previous.rows, sha256: read.sha256 };
        }
        const summary = await writer.commit({ sha256: read.sha256, bytes: read.bytes, gzipped: read.gzipped, etag: read.etag, ingestedAt: d.now() });
        return { key, status: 'imported', rows: summary.rows, sha256: read.sha256 };
      } catch (e) {
        await writer.rollback().catch(() => undefined);
        if (e instanceof DriftFileError && e.kind === 'corrupt') {
          await d.importStore.recordCorrupt({ fileKey: key, market: input.market, date: input.date, at: d.now(), error: e.message });
          throw ApplicationFailure.nonRetryable(e.message, 'DriftFileCorrupt');
        }
        if (e instanceof DriftFileError && !e.retryable) throw ApplicationFailure.nonRetryable(e.message, 'DriftFileRefused');
        throw e;
      }
    },

    /** Recomputes up to `limit` dirty traders from all their imported rows; returns how many are left. */
    async refreshDirtyDriftTraders(input: { limit: number }): Promise<{ refreshed: number; remaining: number }> {
      const taken = await d.traderStore.takeDirty(input.limit);
      if (taken.size) {
        const rows = await d.traderStore.tradesOf([...taken.keys()]);
        heartbeat({ traders: taken.size, rows: rows.length });
        const stats = driftTraderStats(rows, (t) => (t as MarketTrade).market);
        await d.traderStore.save(taken, stats, d.now());
      }
      return { refreshed: taken.size, remaining: await d.traderStore.remainingDirty() };
    },
  };
}
export type DriftImportActivities = ReturnType<typeof createDriftImportActivities>;
