import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/**
 * One appended event as the firehose sends it: the payload stays the JSON text Postgres wrote, never parsed here.
 * `ownerKeyId`: the one key whose connections may see it (an alert fire of its rule); null for everyone's events.
 */
export type FirehoseLogEvent = { seq: number; kind: string; at: string; payloadJson: string; ownerKeyId: number | null };

/**
 * The firehose's durable log (migration 0018): triggers on the source tables append, every API process reads it in
 * seq order (which is commit order), and old events are pruned past the retention window.
 */
export function createFirehoseLogStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /** Events after `seq`, oldest first, and the prune watermark read by the same statement. */
    async readAfter(seq: number, limit: number): Promise<{ events: FirehoseLogEvent[]; prunedThrough: number }> {
      const r = await db.raw(
        `SELECT (SELECT pruned_through FROM firehose_state WHERE id = 1) AS pruned_through, e.seq, e.kind,
                firehose_iso(e.at) AS at, e.payload::text AS payload, e.owner_key_id
           FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT * FROM firehose_events WHERE seq > ? ORDER BY seq LIMIT ?) e ON true`,
        [seq, limit],
      );
      const rows = r.rows as { pruned_through: number; seq: number | null; kind: string; at: string; payload: string; owner_key_id: string | null }[];
      return {
        prunedThrough: Number(rows[0]?.pruned_through ?? 0),
        events: rows
          .filter((x) => x.seq !== null)
          .map((x) => ({
            seq: Number(x.seq),
            kind: x.kind,
            at: x.at,
            payloadJson: x.payload,
            ownerKeyId: x.owner_key_id === null ? null : Number(x.owner_key_id),
          })),
      };
    },

    /** The newest committed seq (0 when the log is empty and nothing was ever pruned). */
    async head(): Promise<number> {
      const r = await db.raw(
        `SELECT greatest(coalesce((SELECT max(seq) FROM firehose_events), 0), (SELECT pruned_through FROM firehose_state WHERE id = 1)) AS head`,
      );
      return Number(r.rows[0].head);
    },

    /**
     * The prune watermark, and the largest seq ever drawn (committed or not): a resume point above it was never
     * issued by this database.
     */
    async watermarks(): Promise<{ prunedThrough: number; lastDrawn: number }> {
      const r = await db.raw(
        `SELECT (SELECT pruned_through FROM firehose_state WHERE id = 1) AS pruned_through,
                (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM firehose_events_seq) AS last_drawn`,
      );
      return { prunedThrough: Number(r.rows[0].pruned_through), lastDrawn: Number(r.rows[0].last_drawn) };
    },

    /** Deletes every event up to the newest one older than `olderThanS`; returns the new watermark. Safe to run from many processes. */
    async prune(olderThanS: number): Promise<number> {
      const r = await db.raw(
        `WITH cut AS (SELECT max(seq) AS s FROM firehose_events WHERE at < now() - make_interval(secs => ?)),
              gone AS (DELETE FROM firehose_events WHERE seq <= (SELECT s FROM cut) RETURNING seq)
         UPDATE firehose_state SET pruned_through = greatest(pruned_through, coalesce((SELECT s FROM cut), 0))
          WHERE id = 1 RETURNING pruned_through, (SELECT count(*) FROM gone) AS deleted`,
        [olderThanS],
      );
      return Number(r.rows[0].pruned_through);
    },
  };
}
export type FirehoseLogStore = ReturnType<typeof createFirehoseLogStore>;
