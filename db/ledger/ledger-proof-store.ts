import type { SiblingPosition } from '../../domain/ledger/proof-path';
import { preparedQuery, type Knex } from '../../platform/db';

export type LeafLink = { commitId: number; leafIndex: number };
export type CommittedMark = { itemId: number; hourStart: Date; committedAt: Date };

/**
 * What proofs are cut from: each committed row's place in its tree, and 32-byte slices of the stored levels.
 * On every proof's path, so the two lookups are prepared statements.
 */
export function createLedgerProofStore(db: Knex) {
  return {
    async link(track: string, itemId: number): Promise<LeafLink | null> {
      const rows = await preparedQuery<{ commit_id: number; leaf_index: number }>(db, {
        name: 'ledger_leaf_link',
        text: 'SELECT commit_id, leaf_index FROM ledger_leaves WHERE track = $1 AND item_id = $2',
        values: [track, itemId],
      });
      return rows[0] ? { commitId: Number(rows[0].commit_id), leafIndex: rows[0].leaf_index } : null;
    },

    /**
     * The nodes at `positions` of a commit's tree, in the order asked, as stored (raw 32 bytes each). Reads only
     * those slices of the levels (stored uncompressed out of line), whatever the tree's size.
     */
    async nodes(commitId: number, positions: readonly Pick<SiblingPosition, 'level' | 'index'>[]): Promise<Uint8Array[]> {
      if (positions.length === 0) return [];
      const rows = await preparedQuery<{ ord: number; node: Buffer | null }>(db, {
        name: 'ledger_tree_nodes',
        text: `SELECT p.ord::int AS ord, substring(t.nodes FROM p.pos * 32 + 1 FOR 32) AS node
                 FROM unnest($2::int[], $3::int[]) WITH ORDINALITY AS p(level, pos, ord)
                 LEFT JOIN ledger_tree_levels t ON t.commit_id = $1 AND t.level = p.level
                ORDER BY p.ord`,
        values: [commitId, positions.map((p) => p.level), positions.map((p) => p.index)],
      });
      return rows.map((r) => {
        if (!r.node || r.node.length !== 32) throw new Error(`commit ${commitId}: no stored node at position ${r.ord - 1}`);
        return new Uint8Array(r.node);
      });
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
