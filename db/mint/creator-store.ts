import type { Knex } from 'knex';
import { CREATOR_5X, type CreatorAggregate, type OwnOutcome } from '../../domain/launch/creator-record';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/** Creators' track records: aggregates over their resolved launches, recomputed at each resolution. */
export function createCreatorStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async aggregates(creators: readonly string[], labelVersion: string): Promise<Map<string, CreatorAggregate>> {
      if (!creators.length) return new Map();
      const rows = await db('creators')
        .whereIn('creator', creators)
        .where('label_version', labelVersion)
        .select('creator', 'n_resolved', 'n_5x', 'n_graduated', 'n_rugged');
      return new Map(rows.map((r) => [r.creator as string, { nResolved: r.n_resolved, n5x: r.n_5x, nGraduated: r.n_graduated, nRugged: r.n_rugged }]));
    },

    /**
     * Each creator's non-mayhem launches as known now (resolved and open, any age), read at every call: the
     * `creators` table's count moves only when a launch resolves. Served by the (creator, created_at) index.
     */
    async launchCounts(creators: readonly string[]): Promise<Map<string, number>> {
      if (!creators.length) return new Map();
      const rows = await db('mints').whereIn('creator', creators).where({ mayhem: false }).groupBy('creator').select('creator').count('* as n');
      return new Map(rows.map((r) => [r.creator as string, Number(r.n)]));
    },

    /** The mints' own resolved outcomes under `labelVersion`; a mint still unresolved has none. */
    async ownOutcomes(mints: readonly string[], labelVersion: string): Promise<Map<string, OwnOutcome>> {
      if (!mints.length) return new Map();
      const rows = await db('mint_outcomes').whereIn('mint', mints).where({ label_version: labelVersion }).select('mint', 'peak_mult_from_launch');
      return new Map(rows.map((r) => [r.mint as string, { reached5x: (r.peak_mult_from_launch ?? 0) >= CREATOR_5X }]));
    },
  };
}
export type CreatorStore = ReturnType<typeof createCreatorStore>;

/**
 * Recomputes one creator's aggregates from its resolved launches under `labelVersion` (rugs under
 * `rugLabelVersion`), inside the caller's
 * transaction. Recomputed, not incremented: a retried activity cannot count a launch twice.
 */
export async function recomputeCreator(trx: Knex.Transaction, creator: string, labelVersion: string, rugLabelVersion: string, at: Date): Promise<void> {
  await trx.raw(
    `INSERT INTO creators (creator, n_launches, n_resolved, n_graduated, n_5x, n_rugged, label_version, last_resolved_at, updated_at)
     SELECT m.creator, count(*), count(o.mint), count(*) FILTER (WHERE o.graduated),
            count(*) FILTER (WHERE o.peak_mult_from_launch >= ?), count(*) FILTER (WHERE o.rugged AND o.rug_label_version = ?), ?, max(o.resolved_at), ?
     FROM mints m LEFT JOIN mint_outcomes o ON o.mint = m.mint AND o.label_version = ?
     WHERE m.creator = ? AND NOT m.mayhem
     GROUP BY m.creator
     ON CONFLICT (creator) DO UPDATE SET n_launches = EXCLUDED.n_launches, n_resolved = EXCLUDED.n_resolved,
       n_graduated = EXCLUDED.n_graduated, n_5x = EXCLUDED.n_5x, n_rugged = EXCLUDED.n_rugged,
       label_version = EXCLUDED.label_version, last_resolved_at = EXCLUDED.last_resolved_at, updated_at = EXCLUDED.updated_at`,
    [CREATOR_5X, rugLabelVersion, labelVersion, at, labelVersion, creator],
  );
}
