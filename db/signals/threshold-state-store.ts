import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type StoredThreshold = { generation: number; state: unknown; savedAt: Date };

/**
 * The rolling threshold's sketch, one row per writer. A save names the generation it was loaded at and fails
 * (null) when another process saved since: two workers that both ran the live projector's activity (a retry that
 * landed elsewhere) never overwrite each other's newer samples blindly; the loser reloads.
 */
export function createThresholdStateStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async load(writerId: string): Promise<StoredThreshold | undefined> {
      const r = await db('composite_threshold_state').where({ writer_id: writerId }).first();
      return r ? { generation: Number(r.generation), state: r.state, savedAt: r.saved_at } : undefined;
    },

    async generation(writerId: string): Promise<number | null> {
      const r = await db('composite_threshold_state').where({ writer_id: writerId }).first('generation');
      return r ? Number(r.generation) : null;
    },

    /** Saves over `expected` (null: no row yet); the new generation, or null when someone else saved first. */
    async save(writerId: string, expected: number | null, state: unknown, at: Date): Promise<number | null> {
      const json = JSON.stringify(state);
      if (expected === null) {
        const r = await db.raw(
          `INSERT INTO composite_threshold_state (writer_id, generation, state, saved_at) VALUES (?, 1, ?::jsonb, ?)
           ON CONFLICT (writer_id) DO NOTHING RETURNING generation`,
          [writerId, json, at],
        );
        return r.rows.length ? 1 : null;
      }
      const r = await db.raw(
        `UPDATE composite_threshold_state SET generation = generation + 1, state = ?::jsonb, saved_at = ?
         WHERE writer_id = ? AND generation = ? RETURNING generation`,
        [json, at, writerId, expected],
      );
      return r.rows.length ? Number(r.rows[0].generation) : null;
    },
  };
}
export type ThresholdStateStore = ReturnType<typeof createThresholdStateStore>;
