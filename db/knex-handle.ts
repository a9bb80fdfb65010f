import type { Knex } from 'knex';
import type { Db } from './db-handle';

/**
 * The same knex instance or transaction, also typed as a `Db`: its holder (a composition root, a store that opened a
 * transaction, a test) keeps querying it and hands it to stores. No wrapper object, so a transaction stays the
 * transaction knex gave.
 */
export function asDb<K extends Knex | Knex.Transaction>(k: K): K & Db {
  return k as K & Db;
}

/** The knex instance behind a handle, for the store that was given it; code outside db/ has no use for it. */
export function knexOf(handle: Db): Knex {
  return handle as unknown as Knex;
}

/** A knex instance its holder queries and also hands to stores: what the composition roots and tests hold. */
export type KnexDb = Knex & Db;
