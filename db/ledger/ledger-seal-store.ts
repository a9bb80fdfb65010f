import { rowFilterSql, type LedgerRowSource } from './ledger-row-source';
import { LEDGER_ROW_SOURCES } from './ledger-row-sources';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/** The SQLSTATE the seal trigger refuses a row with (migration 0012, `ledger_refuse_sealed_row`). */
export const LEDGER_SEALED_SQLSTATE = 'LG001';

export const isLedgerSealedError = (e: unknown): boolean => (e as { code?: unknown } | null)?.code === LEDGER_SEALED_SQLSTATE;

/** A row refused because the ledger has sealed (committed) the hour its time falls in. */
export class LedgerHourSealedError extends Error {
  override readonly name = 'LedgerHourSealedError';
}

export type SealedHour = { track: string; hourStart: Date; rowCount: number };

export function createLedgerSealStore(handle: Db, sources: readonly LedgerRowSource[] = LEDGER_ROW_SOURCES) {
  const db = knexOf(handle);
  return {
    /**
     * Moves the track's seal forward to `horizon` and records each non-empty hour it closes, with its row count,
     * in one transaction. From then on the database refuses any row before the seal (the trigger on the source
     * table), so what is counted here is what the hour's commit will hold. Holding the seal's lock blocks that
     * source's inserts, so this does only index probes: the next non-empty hour is found by a skip scan, not by
     * reading the rows. Returns the hours sealed now (none when the seal already reached `horizon`).
     */
    async seal(track: string, horizon: Date, now: Date): Promise<SealedHour[]> {
      const source = sources.find((s) => s.track === track);
      if (!source) throw new Error(`ledger track ${track} has no row source`);
      return db.transaction(async (trx) => {
        // The trigger's lock (migration 0012): taken exclusively, it waits for the track's writes in flight.
        await trx.raw(`SELECT pg_advisory_xact_lock(hashtext('ledger_seal:' || ?))`, [source.track]);
        const seal = await trx('ledger_seals').where({ track: source.track }).forUpdate().first('sealed_until');
        if (!seal) throw new Error(`ledger track ${source.track} has no seal row`);
        const from = seal.sealed_until as Date | null;
        if (from && from.getTime() >= horizon.getTime()) return [];
        const t = `"${source.timeColumn}"`;
        const only = rowFilterSql(source);
        const { rows } = await trx.raw<{ rows: { hour_start: Date; row_count: number }[] }>(
          `WITH RECURSIVE hours(h) AS (
             SELECT date_trunc('hour', min(${t}), 'UTC') FROM "${source.table}" WHERE ${t} >= ?::timestamptz AND ${t} < ?${only}
             UNION ALL
             SELECT (SELECT date_trunc('hour', min(${t}), 'UTC') FROM "${source.table}" WHERE ${t} >= hours.h + interval '1 hour' AND ${t} < ?${only})
               FROM hours WHERE hours.h IS NOT NULL)
           SELECT h AS hour_start, (SELECT count(*) FROM "${source.table}" WHERE ${t} >= h AND ${t} < h + interval '1 hour'${only})::int AS row_count
             FROM hours WHERE h IS NOT NULL ORDER BY h`,
          [from ? from.toISOString() : '-infinity', horizon, horizon],
        );
        if (rows.length > 0) {
          await trx('ledger_sealed_hours').insert(rows.map((r) => ({ track: source.track, hour_start: r.hour_start, row_count: r.row_count, sealed_at: now })));
        }
        await trx('ledger_seals').where({ track: source.track }).update({ sealed_until: horizon, updated_at: now });
        return rows.map((r) => ({ track: source.track, hourStart: r.hour_start, rowCount: r.row_count }));
      });
    },

    /** Sealed hours still without a commit, oldest first: each is committed in this order. */
    async uncommitted(track: string, limit: number): Promise<SealedHour[]> {
      const rows = await db('ledger_sealed_hours as s')
        .leftJoin('ledger_commits as c', function () {
          this.on('c.track', 's.track').andOn('c.hour_start', 's.hour_start');
        })
        .where('s.track', track)
        .whereNull('c.id')
        .orderBy('s.hour_start')
        .limit(limit)
        .select('s.hour_start', 's.row_count');
      return rows.map((r) => ({ track, hourStart: r.hour_start, rowCount: r.row_count }));
    },

    async sealedHour(track: string, hourStart: Date): Promise<SealedHour | null> {
      const r = await db('ledger_sealed_hours').where({ track, hour_start: hourStart }).first('row_count');
      return r ? { track, hourStart, rowCount: r.row_count } : null;
    },

    async sealedUntil(track: string): Promise<Date | null> {
      const r = await db('ledger_seals').where({ track }).first('sealed_until');
      return (r?.sealed_until as Date | null) ?? null;
    },
  };
}
export type LedgerSealStore = ReturnType<typeof createLedgerSealStore>;
