import type { Knex } from 'knex';

/**
 * A database handle (the pool, or a transaction a store opened) as code outside db/ holds it: it is passed to store
 * factories and never queried there. Only db/ imports knex; lint refuses knex (types included) everywhere else but
 * the composition roots, which create the pool.
 */
export type Db = Knex;
