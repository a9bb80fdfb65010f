import type { RunnerGridAge } from '../../domain/scoring/runner-grid';
import type { RunnerOdds } from '../../domain/scoring/runner-model';
import type { RunnerNowRow } from '../../domain/scoring/runner-now-model';
import type { HistorySource } from './history-store';
import { insertRunnerObservations, type ResolvedGrid } from './runner-observation-rows';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/** Odds the live list published for one mint in one grid-age band, and where they start from. */
export type PublishedRunnerOdds = {
  mint: string;
  gridAgeS: RunnerGridAge;
  ageS: number;
  publishedAt: Date;
  priceSol: number;
  odds: RunnerOdds;
  modelVersion: string;
};

/** A published row with its outcome: the peak after publication ÷ the price it started from. */
export type ResolvedRunnerOdds = PublishedRunnerOdds & { peakMult: number; resolvedAt: Date };

/**
 * The from-now runner model's corpus (one row per resolved mint per grid age) and its forward log (the odds the live
 * list published, once per mint per grid age). Every write is idempotent on its natural key.
 */
export function createRunnerNowStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /** The grid rows of resolved mints; returns how many were new. */
    async insertObservations(mints: readonly ResolvedGrid[], source: 'live' | HistorySource): Promise<number> {
      return insertRunnerObservations(db, mints, source);
    },

    /** The newest `limit` rows at one grid age by observation time (as the grad_prob corpus, corpus-store.ts). */
    async corpus(ageS: RunnerGridAge, labelVersion: string, limit: number): Promise<(RunnerNowRow & { source: 'live' | HistorySource })[]> {
      const rows = await db('runner_observations')
        .where({ age_s: ageS, label_version: labelVersion })
        .orderBy('as_of', 'desc')
        .limit(limit)
        .select('mint', 'source', 'features', 'peak_mult_24h', 'as_of');
      return rows.map((r) => ({ mint: r.mint, ageS, features: r.features, peakMult: r.peak_mult_24h, observedAt: r.as_of, source: r.source }));
    },

    /** Logs published odds; a (mint, grid age) already logged keeps its first row. */
    async logPublished(rows: readonly PublishedRunnerOdds[]): Promise<number> {
      if (rows.length === 0) return 0;
      const r = await db('runner_odds_published')
        .insert(
          rows.map((p) => ({
            mint: p.mint,
            grid_age_s: p.gridAgeS,
            age_s: p.ageS,
            published_at: p.publishedAt,
            price_sol: p.priceSol,
            odds: JSON.stringify(p.odds),
            model_version: p.modelVersion,
          })),
        )
        .onConflict(['mint', 'grid_age_s'])
        .ignore()
        .returning('mint');
      return r.length;
    },

    /** The mint's published odds not resolved yet. */
    async unresolvedOf(mint: string): Promise<PublishedRunnerOdds[]> {
      const rows = await db('runner_odds_published').where({ mint }).whereNull('resolved_at').orderBy('grid_age_s');
      return rows.map(publishedRow);
    },

    async resolve(mint: string, labelVersion: string, resolvedAt: Date, peaks: readonly { gridAgeS: number; peakMult: number }[]): Promise<void> {
      for (const p of peaks)
        await db('runner_odds_published')
          .where({ mint, grid_age_s: p.gridAgeS })
          .whereNull('resolved_at')
          .update({ label_version: labelVersion, peak_mult_24h: p.peakMult, resolved_at: resolvedAt });
    },

    /** Odds published since `since` (the accuracy window) and resolved under `labelVersion` after they were published. */
    async resolvedSince(since: Date, labelVersion: string): Promise<ResolvedRunnerOdds[]> {
      const rows = await db('runner_odds_published')
        .where('published_at', '>=', since)
        .where({ label_version: labelVersion })
        .whereRaw('published_at < resolved_at')
        .orderBy(['grid_age_s', 'published_at', 'mint']);
      return rows.map((r) => ({ ...publishedRow(r), peakMult: r.peak_mult_24h, resolvedAt: r.resolved_at }));
    },
  };
}
export type RunnerNowStore = ReturnType<typeof createRunnerNowStore>;

const publishedRow = (r: {
  mint: string;
  grid_age_s: number;
  age_s: number;
  published_at: Date;
  price_sol: number;
  odds: RunnerOdds;
  model_version: string;
}): PublishedRunnerOdds => ({
  mint: r.mint,
  gridAgeS: r.grid_age_s as RunnerGridAge,
  ageS: r.age_s,
  publishedAt: r.published_at,
  priceSol: r.price_sol,
  odds: r.odds,
  modelVersion: r.model_version,
});
