import type { OnStartBackfill } from '../../domain/history/backfill-on-start';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type OnStartStatus = OnStartBackfill & { requestedAt: Date; chunksDone: number };

const MARKER = 'on-start';

/**
 * The first start's backfill range, stored once: the first worker's insert wins, every later start (a restart, a
 * second worker) reads the same range back and starts or joins that range's workflow.
 */
export function createBackfillOnStartStore(handle: Db) {
  const db = knexOf(handle);
  async function status(): Promise<OnStartStatus | null> {
    const r = await db('history_backfill_on_start').where({ marker: MARKER }).first();
    if (!r) return null;
    const done = await db('history_backfill_chunks').where({ range_id: r.range_id }).whereNotNull('completed_at').count({ n: '*' }).first();
    return {
      rangeId: r.range_id,
      fromMs: r.from_at.getTime(),
      toMs: r.to_at.getTime(),
      hours: r.hours,
      chunkS: r.chunk_s,
      chunks: r.chunks,
      requestedAt: r.requested_at,
      chunksDone: Number(done?.n ?? 0),
    };
  }
  return {
    /** Stores `b` unless a range is stored already; returns the stored one with its progress. */
    async claim(b: OnStartBackfill, now: Date): Promise<OnStartStatus> {
      await db('history_backfill_on_start')
        .insert({
          marker: MARKER,
          range_id: b.rangeId,
          from_at: new Date(b.fromMs),
          to_at: new Date(b.toMs),
          hours: b.hours,
          chunk_s: b.chunkS,
          chunks: b.chunks,
          requested_at: now,
        })
        .onConflict('marker')
        .ignore();
      return (await status())!;
    },
    status,
  };
}
export type BackfillOnStartStore = ReturnType<typeof createBackfillOnStartStore>;
