import type { Knex } from 'knex';
import type { RunnerObservation } from '../../domain/scoring/runner-grid';
import { insertNewRows } from './insert-new-rows';

/** One resolved mint's grid rows with its label version and resolution time. */
export type ResolvedGrid = { mint: string; labelVersion: string; resolvedAt: Date; rows: readonly RunnerObservation[] };

/**
 * Writes grid rows into `runner_observations`, keeping a (mint, age) already there; returns how many were new. One
 * writer for the lifecycle's resolutions (runner-now-store.ts) and history runs (history-store.ts), so both sources
 * store the same row.
 */
export function insertRunnerObservations(db: Knex, mints: readonly ResolvedGrid[], source: string): Promise<number> {
  const rows = mints.flatMap((m) =>
    m.rows.map((o) => ({
      mint: m.mint,
      age_s: o.ageS,
      source,
      as_of: o.observedAt,
      features: JSON.stringify(o.features),
      price_sol: o.priceSol,
      peak_mult_24h: o.peakMult,
      label_version: m.labelVersion,
      resolved_at: m.resolvedAt,
    })),
  );
  return insertNewRows(db, 'runner_observations', ['mint', 'age_s'], rows);
}
