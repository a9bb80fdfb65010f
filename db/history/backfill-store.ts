import type { Knex } from 'knex';
import type { CompleteEvent, LaunchEvent } from '../../domain/launch/launch-events';
import { createLaunchEventStore } from '../mint/launch-event-store';
import { toMintRow, toTrade } from '../mint/mint-read-store';
import type { Db } from '../db-handle';
import { asDb, knexOf } from '../knex-handle';

export type BackfillPageRow = {
  chunkId: string;
  page: number;
  beforeSignature: string | null;
  lastSignature: string | null;
  signaturesSeen: number;
  inRange: number;
  transactionsDecoded: number;
  oldestBlockTime: Date | null;
};
export type BackfillPageWrite = { launches: number; trades: number; graduations: number; rowsWritten: number };
export type BackfillChunkProgress = {
  chunkId: string;
  fromAt: Date;
  toAt: Date;
  completedAt: Date | null;
  pages: number;
  signaturesSeen: number;
  transactionsDecoded: number;
  launches: number;
  trades: number;
  rowsWritten: number;
  requests: number;
  oldestBlockTime: Date | null;
  lastSignature: string | null;
};

/**
 * The chain backfill's durable side: a page's launches, trades and graduations go through the live feed's own
 * idempotent write (`LaunchEventStore.writeBatch`, the same tables, so the wallet index and creator records see
 * them) in one transaction with the page's progress row, so a page read again after a crash stores nothing twice and
 * its counts stay exact. Backfilled mints are history: their lifecycle outbox is closed in that transaction, so no
 * lifecycle is started or signalled for them and they never reach the forward accuracy figures.
 */
export function createBackfillStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async beginChunk(
      c: { chunkId: string; rangeId: string; fromAt: Date; toAt: Date },
      now: Date,
    ): Promise<{ completed: boolean; lastSignature: string | null }> {
      await db('history_backfill_chunks')
        .insert({ chunk_id: c.chunkId, range_id: c.rangeId, from_at: c.fromAt, to_at: c.toAt, started_at: now })
        .onConflict('chunk_id')
        .ignore();
      const r = await db('history_backfill_chunks').where({ chunk_id: c.chunkId }).first('completed_at', 'last_signature');
      return { completed: !!r?.completed_at, lastSignature: r?.last_signature ?? null };
    },

    async completeChunk(chunkId: string, lastSignature: string | null, now: Date): Promise<void> {
      await db('history_backfill_chunks').where({ chunk_id: chunkId }).whereNull('completed_at').update({ completed_at: now, last_signature: lastSignature });
    },

    async storePage(row: BackfillPageRow, events: LaunchEvent[], requests: number, now: Date, day: string): Promise<BackfillPageWrite> {
      return db.transaction(async (trx) => {
        const r = await createLaunchEventStore(asDb(trx)).writeBatch(events);
        if (r.newMints.length)
          await trx('mints')
            .whereIn(
              'mint',
              r.newMints.map((m) => m.mint),
            )
            .update({ workflow_started_at: now });
        if (r.newGraduations.length)
          await trx('mint_graduations')
            .whereIn(
              'mint',
              r.newGraduations.map((g) => g.mint),
            )
            .update({ signalled_at: now });
        const counts = {
          launches: events.filter((e) => e.kind === 'create').length,
          trades: events.filter((e) => e.kind === 'trade').length,
          graduations: events.filter((e) => e.kind === 'complete').length,
          rowsWritten: r.written,
        };
        // A page stored before (its activity's answer lost in a crash) keeps its first, exact row.
        await trx('history_backfill_pages')
          .insert({
            chunk_id: row.chunkId,
            page: row.page,
            before_signature: row.beforeSignature,
            last_signature: row.lastSignature,
            signatures_seen: row.signaturesSeen,
            in_range: row.inRange,
            transactions_decoded: row.transactionsDecoded,
            launches: counts.launches,
            trades: counts.trades,
            graduations: counts.graduations,
            rows_written: counts.rowsWritten,
            requests,
            oldest_block_time: row.oldestBlockTime,
            recorded_at: now,
          })
          .onConflict(['chunk_id', 'page'])
          .ignore();
        await addRequests(trx, day, requests);
        return counts;
      });
    },

    /** Requests spent on a page that stored nothing (a failed attempt) still count against the day. */
    addRequests: (day: string, requests: number) => addRequests(db, day, requests),

    async requestsOn(day: string): Promise<number> {
      const r = await db('history_rpc_days').where({ day }).first('requests');
      return r?.requests ?? 0;
    },

    /**
     * The stored events of the mints created in [from, to) (whatever feed stored them), in time order as ingestion
     * would have delivered them: a backtest on a backfilled range. Held in memory: about 25 MB per day of history.
     */
    async storedEvents(from: Date, to: Date, o: { source?: string } = {}): Promise<LaunchEvent[]> {
      const mints: Record<string, any>[] = await db('mints as m')
        .leftJoin('mint_graduations as g', 'g.mint', 'm.mint')
        .where('m.created_at', '>=', from)
        .where('m.created_at', '<', to)
        .modify((q) => void (o.source && q.where('m.source', o.source)))
        .select('m.*', 'g.completed_at', 'g.migrated_at', 'g.complete_signature', 'g.source as graduation_source');
      const out: LaunchEvent[] = [];
      const completes: CompleteEvent[] = [];
      for (const r of mints) {
        const { graduatedAt: _, ...create } = toMintRow(r);
        out.push(create);
        if (r.completed_at) {
          const c: CompleteEvent = {
            kind: 'complete',
            mint: r.mint,
            signature: r.complete_signature ?? '',
            ordinal: 0,
            slot: null,
            at: r.completed_at,
            source: r.graduation_source,
          };
          completes.push(c);
        }
      }
      for (let i = 0; i < mints.length; i += 1000) {
        const trades = await db('trades')
          .whereIn(
            'mint',
            mints.slice(i, i + 1000).map((m) => m.mint),
          )
          .orderBy([{ column: 'at' }, { column: 'seq' }]);
        out.push(...trades.map(toTrade));
      }
      out.push(...completes);
      // Stable: a create sorts before the trades of its instant and a completion after them, as they were stored.
      return out.sort((a, b) => a.at.getTime() - b.at.getTime());
    },

    /** Every chunk of a range with its pages summed, newest first (the progress bar and the range's figures). */
    async rangeProgress(rangeId: string): Promise<BackfillChunkProgress[]> {
      const rows = await db('history_backfill_chunks as c')
        .leftJoin('history_backfill_pages as p', 'p.chunk_id', 'c.chunk_id')
        .where('c.range_id', rangeId)
        .groupBy('c.chunk_id')
        .orderBy('c.to_at', 'desc')
        .select(
          'c.chunk_id',
          'c.from_at',
          'c.to_at',
          'c.completed_at',
          'c.last_signature',
          db.raw('count(p.page)::int as pages'),
          db.raw('coalesce(sum(p.signatures_seen), 0)::int as signatures_seen'),
          db.raw('coalesce(sum(p.transactions_decoded), 0)::int as transactions_decoded'),
          db.raw('coalesce(sum(p.launches), 0)::int as launches'),
          db.raw('coalesce(sum(p.trades), 0)::int as trades'),
          db.raw('coalesce(sum(p.rows_written), 0)::int as rows_written'),
          db.raw('coalesce(sum(p.requests), 0)::int as requests'),
          db.raw('min(p.oldest_block_time) as oldest_block_time'),
        );
      return rows.map((r) => ({
        chunkId: r.chunk_id,
        fromAt: r.from_at,
        toAt: r.to_at,
        completedAt: r.completed_at,
        pages: r.pages,
        signaturesSeen: r.signatures_seen,
        transactionsDecoded: r.transactions_decoded,
        launches: r.launches,
        trades: r.trades,
        rowsWritten: r.rows_written,
        requests: r.requests,
        oldestBlockTime: r.oldest_block_time ?? null,
        lastSignature: r.last_signature,
      }));
    },
  };
}
export type BackfillStore = ReturnType<typeof createBackfillStore>;

async function addRequests(db: Knex, day: string, requests: number): Promise<void> {
  if (requests <= 0) return;
  await db.raw(
    'INSERT INTO history_rpc_days (day, requests) VALUES (?, ?) ON CONFLICT (day) DO UPDATE SET requests = history_rpc_days.requests + EXCLUDED.requests',
    [day, requests],
  );
}
