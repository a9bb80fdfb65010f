import type { Knex } from 'knex';
import type { DriftTrade } from '../../domain/perps/drift-trade';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type StoredFileStatus = { status: 'imported' | 'missing' | 'corrupt'; sha256: string | null; rows: number; ingestedAt: Date };
export type FileSummary = { rows: number; volumeUsd: number; traders: number };

/**
 * One day file's import, inside one transaction: the file's earlier rows are removed, its rows inserted as they
 * stream in (keyed by the fill's natural key, so nothing lands twice), and at the end either committed with the
 * file's checksum and summary, or rolled back (a failed read, or the same checksum as the import already held:
 * a file served twice changes nothing).
 */
export type FileImportWriter = {
  previous: StoredFileStatus | null;
  insert(rows: readonly DriftTrade[]): Promise<void>;
  commit(f: { sha256: string; bytes: number; gzipped: boolean; etag: string | null; ingestedAt: Date }): Promise<FileSummary>;
  rollback(): Promise<void>;
};

export function createExchangeAImportStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async fileStatus(fileKey: string): Promise<StoredFileStatus | undefined> {
      const r = await db('exchange_a_files').where({ file_key: fileKey }).first('status', 'sha256', 'rows', 'ingested_at');
      return r && { status: r.status, sha256: r.sha256, rows: r.rows, ingestedAt: r.ingested_at };
    },

    async openFileImport(f: { fileKey: string; market: string; date: string }): Promise<FileImportWriter> {
      const trx = await db.transaction();
      try {
        // Two imports of one file (overlapping ranges) take turns.
        await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`drift-file:${f.fileKey}`]);
        const prev = await trx('exchange_a_files').where({ file_key: f.fileKey }).first('status', 'sha256', 'rows', 'ingested_at');
        if (prev?.status === 'imported') await trx('exchange_a_trades').where({ file_key: f.fileKey }).delete();
        return fileWriter(trx, f, prev ? { status: prev.status, sha256: prev.sha256, rows: prev.rows, ingestedAt: prev.ingested_at } : null);
      } catch (e) {
        await trx.rollback().catch(() => undefined);
        throw e;
      }
    },

    /** No file for that day (the bucket answered 404): recorded, so a later import need not ask again. */
    async recordMissing(f: { fileKey: string; market: string; date: string; at: Date }): Promise<void> {
      await db('exchange_a_files')
        .insert({ file_key: f.fileKey, market: f.market, date: f.date, status: 'missing', ingested_at: f.at })
        .onConflict('file_key')
        .merge(['status', 'ingested_at']);
    },

    /** A file malformed as stored. One imported earlier keeps its rows (its last good content), with the error noted. */
    async recordCorrupt(f: { fileKey: string; market: string; date: string; at: Date; error: string }): Promise<void> {
      await db.raw(
        `INSERT INTO exchange_a_files AS x (file_key, market, date, status, ingested_at, error) VALUES (?, ?, ?, 'corrupt', ?, ?)
         ON CONFLICT (file_key) DO UPDATE SET error = excluded.error,
           status = CASE WHEN x.status = 'imported' THEN x.status ELSE excluded.status END,
           ingested_at = CASE WHEN x.status = 'imported' THEN x.ingested_at ELSE excluded.ingested_at END`,
        [f.fileKey, f.market, f.date, f.at, f.error.slice(0, 500)],
      );
    },
  };
}
export type ExchangeAImportStore = ReturnType<typeof createExchangeAImportStore>;

function fileWriter(trx: Knex.Transaction, f: { fileKey: string; market: string; date: string }, previous: StoredFileStatus | null): FileImportWriter {
  const traders = new Set<string>();
  let rows = 0;
  let volumeUsd = 0;
  let first: number | null = null;
  let last: number | null = null;
  return {
    previous,
    async insert(batch) {
      if (!batch.length) return;
      for (const t of batch) {
        rows++;
        volumeUsd += t.quoteAmountUsd;
        if (t.taker) traders.add(t.taker);
        if (t.maker) traders.add(t.maker);
        first = first === null ? t.at : Math.min(first, t.at);
        last = last === null ? t.at : Math.max(last, t.at);
      }
      const col = <T>(fn: (t: DriftTrade) => T) => batch.map(fn);
      // One statement per batch with arrays as parameters: thousands of rows for a fixed, small parameter list.
      await trx.raw(
        `INSERT INTO exchange_a_trades (market_type, market_index, fill_record_id, market, file_key, at, tx_sig, slot, action, taker, taker_direction,
           maker, maker_direction, base_amount, quote_amount_usd, oracle_price, taker_fee_usd, maker_fee_usd)
         SELECT mt, mi, fid, ?, ?, at, sig, slot, act, tk, tkd, mk, mkd, base, quote, oracle, tkf, mkf
         FROM unnest(?::text[], ?::int[], ?::int8[], ?::timestamptz[], ?::text[], ?::int8[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],
                     ?::float8[], ?::float8[], ?::float8[], ?::float8[], ?::float8[])
           AS x(mt, mi, fid, at, sig, slot, act, tk, tkd, mk, mkd, base, quote, oracle, tkf, mkf)
         ON CONFLICT (market_type, market_index, fill_record_id) DO NOTHING`,
        [
          f.market,
          f.fileKey,
          col((t) => t.marketType),
          col((t) => t.marketIndex),
          col((t) => t.fillRecordId),
          col((t) => new Date(t.at).toISOString()),
          col((t) => t.txSig),
          col((t) => t.slot),
          col((t) => t.action),
          col((t) => t.taker),
          col((t) => t.takerDirection),
          col((t) => t.maker),
          col((t) => t.makerDirection),
          col((t) => t.baseAmount),
          col((t) => t.quoteAmountUsd),
          col((t) => t.oraclePrice),
          col((t) => t.takerFeeUsd),
          col((t) => t.makerFeeUsd),
        ] as Knex.RawBinding[],
      );
    },
    async commit(x) {
      // Sorted: files committed at once then lock the traders' rows in one order and never deadlock one another.
      const list = [...traders].sort();
      await trx('exchange_a_files')
        .insert({
          file_key: f.fileKey,
          market: f.market,
          date: f.date,
          status: 'imported',
          sha256: x.sha256,
          bytes: x.bytes,
          rows,
          volume_usd: volumeUsd,
          traders: list.length,
          gzipped: x.gzipped,
          etag: x.etag,
          first_trade_at: first === null ? null : new Date(first),
          last_trade_at: last === null ? null : new Date(last),
          ingested_at: x.ingestedAt,
          error: null,
        })
        .onConflict('file_key')
        .merge();
      await trx.raw('INSERT INTO exchange_a_market_traders (market, trader) SELECT ?, t FROM unnest(?::text[]) AS t ORDER BY t ON CONFLICT DO NOTHING', [
        f.market,
        list,
      ]);
      await trx.raw(
        `INSERT INTO exchange_a_dirty_traders AS d (trader, marked_at) SELECT t, ? FROM unnest(?::text[]) AS t ORDER BY t
         ON CONFLICT (trader) DO UPDATE SET marked_at = excluded.marked_at, version = d.version + 1`,
        [x.ingestedAt, list],
      );
      await trx.commit();
      return { rows, volumeUsd, traders: list.length };
    },
    async rollback() {
      if (!trx.isCompleted()) await trx.rollback();
    },
  };
}
