import path from 'node:path';
import type { Knex } from 'knex';

/** Runs every pending forward-only migration. Safe to call from several processes at once (knex takes a lock). */
export async function migrateToLatest(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({
    directory: path.join(__dirname, 'migrations'),
    loadExtensions: [path.extname(__filename)],
  })) as [number, string[]];
  return applied;
}
