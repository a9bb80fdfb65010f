import type { SignalBody } from '../../domain/signals/signal-payload';
import type { Tier } from '../../domain/signals/tier-rules';
import { isLedgerSealedError } from '../ledger/ledger-seal-store';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/** Transaction-level advisory lock every cursor assignment takes (domain/signals/cursor.ts explains why). */
export const SIGNAL_CURSOR_LOCK = 7_301_150_001;
export const SIGNAL_EVENT_KIND = 'composite_signal';

export type StoredSignal = SignalBody & { id: number; cursor: number };

export type Delivery = { predictionId: number; tier: Tier; gp60: number | null; tieredAt: Date; body: SignalBody };

/**
 * The signal feed. A delivery sets the prediction's tier, writes the outbox event and, as its last statement under
 * the advisory lock, inserts the signal with cursor = greatest(max + 1, now in µs). The lock is released after the
 * commit is visible, so cursor order is commit order and `cursor > since` never skips a later commit.
 */
export function createSignalStore(
  handle: Db,
  /** Test seams that widen the race: a pause before the cursor lock and one after the insert, before commit. */
  o: { beforeCursor?: () => Promise<void>; beforeCommit?: () => Promise<void> } = {},
) {
  const db = knexOf(handle);
  const deliverOnce = (d: Delivery): Promise<{ id: number; cursor: number } | null> =>
    db.transaction(async (trx) => {
      const n = await trx('composite_predictions')
        .where({ id: d.predictionId })
        .whereNull('tier')
        .update({ tier: d.tier, gp_60: d.gp60, tiered_at: d.tieredAt });
      if (n === 0) return null;
      await trx('event_outbox').insert({
        kind: SIGNAL_EVENT_KIND,
        event_key: `signal:${d.predictionId}`,
        payload: JSON.stringify({ prediction_id: d.predictionId, signal: d.body }),
        created_at: d.tieredAt,
      });
      await o.beforeCursor?.();
      await trx.raw('SELECT pg_advisory_xact_lock(?)', [SIGNAL_CURSOR_LOCK]);
      const r = await trx.raw(
        `INSERT INTO signals (prediction_id, tier, payload, delivered_at, cursor)
           SELECT ?, ?, ?::jsonb, clock_timestamp(),
                  greatest(coalesce(max(cursor), 0) + 1, (extract(epoch FROM clock_timestamp()) * 1e6)::bigint) FROM signals
           RETURNING id, cursor`,
        [d.predictionId, d.tier, JSON.stringify(d.body)],
      );
      await o.beforeCommit?.();
      return { id: Number(r.rows[0].id), cursor: Number(r.rows[0].cursor) };
    });

  return {
    /**
     * Delivers once: null when the prediction was tiered already (another process, a retry), or when the ledger
     * sealed its hour before its tier was known: then it is marked `tier_skipped_at` and never published (the
     * composite track's trigger, migration 0022).
     */
    async deliver(d: Delivery): Promise<{ id: number; cursor: number } | null> {
      try {
        return await deliverOnce(d);
      } catch (e) {
        if (!isLedgerSealedError(e)) throw e;
        await db('composite_predictions').where({ id: d.predictionId }).whereNull('tier').update({ tier_skipped_at: d.tieredAt });
        return null;
      }
    },

    /** Signals with cursor above `after`, ascending, at most `limit` (pass limit + 1 to learn whether more wait). */
    async after(after: number, limit: number, tier: Tier | null): Promise<StoredSignal[]> {
      const q = db('signals').where('cursor', '>', after).orderBy('cursor').limit(limit).select('id', 'cursor', 'payload');
      if (tier) q.where({ tier });
      const rows = await q;
      return rows.map((r) => ({ ...r.payload, id: Number(r.id), cursor: Number(r.cursor) }));
    },

    async countsSince(since: Date): Promise<Record<Tier, number>> {
      const rows = await db('signals').where('delivered_at', '>=', since).groupBy('tier').select('tier').count('* as n');
      const out: Record<Tier, number> = { ACT: 0, WATCH: 0, SCOUT: 0 };
      for (const r of rows as any[]) out[r.tier as Tier] = Number(r.n);
      return out;
    },
  };
}
export type SignalStore = ReturnType<typeof createSignalStore>;
