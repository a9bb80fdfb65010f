import type { ResolvedLaunch } from '../../domain/scoring/launch-histories';
import { insertNewRows } from './insert-new-rows';
import { insertRunnerObservations } from './runner-observation-rows';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type HistorySource = 'synthetic' | 'backfill';
/** What one source of history adds to the corpus (GET /api/scope, /api/predictor/health). */
export type HistorySummary = { source: HistorySource; mints: number; oldestCreatedAt: Date | null; newestCreatedAt: Date | null };

/**
 * History the models learn from that this deployment did not predict: one row per (mint, scoring age) with the
 * features production would have logged and the labels at the horizon. Writes are idempotent per (mint, age), so a
 * run interrupted at any point is simply run again.
 */
export function createHistoryStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async isComplete(runId: string): Promise<boolean> {
      const r = await db('history_runs').where({ run_id: runId }).whereNotNull('completed_at').first('run_id');
      return r !== undefined;
    },

    /** A run of seeded (simulated) history begun and not completed: its corpus is still being written. */
    async seedingInProgress(): Promise<boolean> {
      const r = await db('history_runs').where({ source: 'synthetic' }).whereNull('completed_at').first('run_id');
      return r !== undefined;
    },

    async begin(runId: string, source: HistorySource, now: Date): Promise<void> {
      await db('history_runs').insert({ run_id: runId, source, started_at: now }).onConflict('run_id').ignore();
    },

    async complete(runId: string, now: Date): Promise<number> {
      const { n } = (await db('history_observations').where({ run_id: runId }).countDistinct({ n: 'mint' }).first()) as { n: string | number };
      await db('history_runs')
        .where({ run_id: runId })
        .update({ completed_at: now, mints: Number(n) });
      return Number(n);
    },

    /**
     * Writes the launches' observations, and their from-now runner grid rows where the folder computed them (so a
     * fresh deployment's runner odds and base rates have a corpus before its own mints resolve); returns how many
     * observation rows were new.
     */
    async insert(runId: string, source: HistorySource, launches: readonly ResolvedLaunch[]): Promise<number> {
      await insertRunnerObservations(
        db,
        launches.flatMap((l) => (l.grid ? [{ mint: l.mint, labelVersion: l.outcome.labelVersion, resolvedAt: l.resolvedAt, rows: l.grid }] : [])),
        source,
      );
      const rows = launches.flatMap((l) =>
        l.observations.map((o) => ({
          mint: l.mint,
          age_bucket: o.ageS,
          source,
          run_id: runId,
          created_at: l.createdAt,
          as_of: o.observedAt,
          features: JSON.stringify(o.features),
          rug_features: JSON.stringify(o.rugFeatures),
          label_version: l.outcome.labelVersion,
          graduated: l.outcome.graduated,
          rug_label_version: l.outcome.rugLabelVersion,
          rugged: l.outcome.rugged,
          sustained_30m: l.outcome.sustained30m,
          peak_mult_24h: o.peakMultFromCall,
          resolved_at: l.resolvedAt,
        })),
      );
      return insertNewRows(db, 'history_observations', ['mint', 'age_bucket'], rows);
    },

    async summary(): Promise<HistorySummary[]> {
      const rows = await db('history_observations')
        .groupBy('source')
        .orderBy('source')
        .select('source', db.raw('count(DISTINCT mint)::int as mints'), db.raw('min(created_at) as oldest'), db.raw('max(created_at) as newest'));
      return rows.map((r) => ({ source: r.source, mints: r.mints, oldestCreatedAt: r.oldest ?? null, newestCreatedAt: r.newest ?? null }));
    },
  };
}
export type HistoryStore = ReturnType<typeof createHistoryStore>;
