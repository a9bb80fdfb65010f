import type { Knex } from 'knex';

/** Rows per INSERT: one statement carries at most a few MB of features. */
const BATCH = 500;

/** Inserts `rows` in batches, keeping any row already present by `key`; returns how many were new. */
export async function insertNewRows(db: Knex, table: string, key: readonly string[], rows: readonly Record<string, unknown>[]): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < rows.length; i += BATCH) {
    const r = await db(table)
      .insert(rows.slice(i, i + BATCH))
      .onConflict([...key])
      .ignore()
      .returning(key[0]!);
    inserted += r.length;
  }
  return inserted;
}
