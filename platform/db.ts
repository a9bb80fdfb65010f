import knex, { type Knex } from 'knex';
import { types } from 'pg';

export type { Knex };

// int8 (bigint) columns hold counts, ids and lamports that fit a JS number; parse them as numbers
// instead of strings so rows become plain domain objects at the store boundary.
types.setTypeParser(20, (v) => Number(v));
// numeric columns carry prices and probabilities.
types.setTypeParser(1700, (v) => Number(v));

export function createDb(databaseUrl: string, poolMax = 10): Knex {
  return knex({
    client: 'pg',
    connection: databaseUrl,
    pool: { min: 0, max: poolMax },
  });
}
