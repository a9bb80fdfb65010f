import path from 'node:path';
import type { Db } from './db-handle';
import { knexOf } from './knex-handle';

/** Runs every pending forward-only migration. Safe to call from several processes at once (knex takes a lock). */
export async function migrateToLatest(handle: Db): Promise<string[]> {
  const db = knexOf(handle);
  const [, applied] = (await db.migrate.latest({
    directory: path.join(__dirname, 'migrations'),
    loadExtensions: [path.extname(__filename)],
  })) as [number, string[]];
  return applied;
}
