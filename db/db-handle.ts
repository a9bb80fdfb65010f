/** Only the type exists: no value carries this key, so nothing outside db/ can make or open a `Db` by hand. */
declare const dbBrand: unique symbol;

/**
 * A database handle (the pool, or a transaction a store opened) as code outside db/ holds it: an opaque token that is
 * passed to store factories and cannot be queried, so the type checker (not only review) keeps SQL in db/. A store
 * opens it with `knexOf` and a holder of a knex instance brands it with `asDb` (db/knex-handle.ts); lint lets only
 * db/ and the composition roots import those, and refuses knex (types included) everywhere else.
 */
export type Db = { readonly [dbBrand]: true };
