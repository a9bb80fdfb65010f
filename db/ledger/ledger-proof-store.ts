import { preparedQuery } from '../../platform/db';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type LeafLink = { commitId: number; leafIndex: number };
/** A committed row's place, its stored leaf digest and each level's pair partner on its path, leaves first (`stepsFromPath`). */
export type LeafPath = LeafLink & { leaf: Uint8Array; partners: Uint8Array[] };
export type CommittedMark = { itemId: number; hourStart: Date; committedAt: Date };

/**
 * What proofs are cut from: each committed row's place in its tree, and 32-byte slices of the stored levels.
 * The path is on every proof's path, so it is a prepared statement.
 */
export function createLedgerProofStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /**
     * The row's place in its tree, its stored leaf and, at every stored level, its path node's pair partner: the whole
     * proof in one statement (one round trip, one slice per level), before the leaf count is known. Null when not committed.
     */
    async path(track: string, itemId: number): Promise<LeafPath | null> {
      const rows = await preparedQuery<{ commit_id: string; leaf_index: number; leaf: Buffer | null; partner: Buffer | null }>(db, {
        name: 'ledger_leaf_path',
        text: `SELECT l.commit_id, l.leaf_index,
                      CASE WHEN t.level = 0 THEN substring(t.nodes FROM l.leaf_index * 32 + 1 FOR 32) END AS leaf,
                      substring(t.nodes FROM ((l.leaf_index >> t.level) # 1) * 32 + 1 FOR 32) AS partner
                 FROM ledger_leaves l
                 LEFT JOIN ledger_tree_levels t ON t.commit_id = l.commit_id
                WHERE l.track = $1 AND l.item_id = $2
                ORDER BY t.level`,
        values: [track, itemId],
      });
      const first = rows[0];
      if (!first) return null;
      if (first.leaf?.length !== 32) throw new Error(`commit ${first.commit_id}: no stored leaf at index ${first.leaf_index}`);
      return {
        commitId: Number(first.commit_id),
        leafIndex: first.leaf_index,
        leaf: new Uint8Array(first.leaf),
        partners: rows.map((r) => new Uint8Array(r.partner ?? [])),
      };
    },

    /** Which of `itemIds` of a track are committed, with their commit's hour. */
    async committed(track: string, itemIds: readonly number[]): Promise<Map<number, CommittedMark>> {
      if (itemIds.length === 0) return new Map();
      const rows = await db('ledger_leaves as l')
        .join('ledger_commits as c', 'c.id', 'l.commit_id')
        .where('l.track', track)
        .whereIn('l.item_id', [...itemIds])
        .select('l.item_id', 'c.hour_start', 'c.committed_at');
      return new Map(rows.map((r) => [Number(r.item_id), { itemId: Number(r.item_id), hourStart: r.hour_start, committedAt: r.committed_at }]));
    },
  };
}
export type LedgerProofStore = ReturnType<typeof createLedgerProofStore>;
