import fs from 'node:fs';
import { Client } from 'pg';
import { readTestEnv, removeTestEnv } from './test-env';

export default async function globalTeardown(): Promise<void> {
  const env = readTestEnv();
  // This run's databases go; other runs' stay.
  const c = new Client({ connectionString: env.adminUrl });
  await c.connect();
  const rows = await c.query('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [env.dbPrefix]);
  for (const r of rows.rows as { datname: string }[]) await c.query(`DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`);
  await c.end();
  fs.rmSync(env.workflowBundlePath, { force: true });
  removeTestEnv();

  const g = globalThis as Record<string, unknown>;
  for (const key of ['__stopTemporal', '__stopPostgres']) {
    const stop = g[key] as (() => Promise<void>) | undefined;
    if (stop) await stop().catch((e) => console.error(e));
  }
}
