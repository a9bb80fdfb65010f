import type { Knex } from 'knex';

/**
 * A subquery for `whereNotExists` that the accuracy, calibration-cell and corpus reads share: keeps a prediction row (aliased `alias`) only if it
 * was taken strictly before its mint's curve completed (or migrated, when no completion was seen). A row taken at or after graduation is
 * no forecast, and it lands in exactly the high bands a buyer looks at; the 24 h resolution time is no guard, since a
 * graduate is decided long before it. The lifecycle refuses such scores (score_skips), so this only drops rows logged
 * before that rule, or whose graduation was ingested after the score.
 */
export function graduatedBy(db: Knex, alias: string): Knex.QueryBuilder {
  return db('mint_graduations as g').whereRaw(`g.mint = ${alias}.mint`).whereRaw(`coalesce(g.completed_at, g.migrated_at) <= ${alias}.as_of`);
}
