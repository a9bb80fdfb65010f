import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDb } from '../../platform/db';
import { readTestEnv } from './test-env';
import { asDb, type KnexDb } from '../../db/knex-handle';

/** A fresh, migrated database for one test file, copied from the run's template. Dropped by `drop()`. */
export async function createTestDatabase(): Promise<{ db: KnexDb; url: string; drop: () => Promise<void> }> {
  const env = readTestEnv();
  const name = `${env.dbPrefix}${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: env.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${env.templateDb}"`);
  await admin.end();
  const u = new URL(env.adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const db = asDb(createDb(url, 5));
  return {
    db,
    url,
    drop: async () => {
      await db.destroy();
      const c = new Client({ connectionString: env.adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}
