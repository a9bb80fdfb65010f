import fs from 'node:fs';
import { startDaemon } from './daemon-process';
import { freePort } from './local-temporal';
import { childProcesses, isAlive, supervisedPid, type SupervisedName } from './process-table';
import { waitFor } from './run';

/**
 * A whole `npm start` (scripts/start.ts: its supervisor, Postgres, Temporal, worker, API, ingest) on free ports
 * and its own data folder, so a test or a benchmark can kill its processes without touching a running
 * `npm start` or another run.
 */
export type OwnStack = {
  supervisorPid: number;
  apiUrl: string;
  workerMetricsUrl: string;
  pgUrl: (database: string) => string;
  temporalAddress: string;
  /** The current pid of a supervised process (undefined while it is down). */
  pid: (name: SupervisedName) => number | undefined;
  output: () => string;
  /** Every line the supervisor itself printed ("• api is back (pid …)", "!! … crash-looping …"), however much the daemons log. */
  supervisorLines: () => string[];
  /** SIGTERM to the supervisor, as Ctrl-C would; resolves with its exit code once it is gone. */
  stop: (timeoutMs?: number) => Promise<number | null>;
  /** SIGKILL to everything, for clean-up after a failure. */
  kill: () => Promise<void>;
};

export async function startOwnStack(o: { dataDir: string; env?: Record<string, string>; readyTimeoutMs?: number; logFile?: string }): Promise<OwnStack> {
  fs.mkdirSync(o.dataDir, { recursive: true, mode: 0o755 });
  const [pgPort, temporalPort, uiPort, apiPort, metricsPort, apiMetricsPort, perpsPort, pricePort, metadataPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const env = {
    DATA_DIR: o.dataDir,
    API_HOST: '127.0.0.1',
    API_PORT: String(apiPort),
    WORKER_METRICS_PORT: String(metricsPort),
    API_METRICS_PORT: String(apiMetricsPort),
    PERPS_SIMULATOR_PORT: String(perpsPort),
    PRICE_SIMULATOR_PORT: String(pricePort),
    METADATA_SIMULATOR_PORT: String(metadataPort),
    // Its own services, whatever this shell points at.
    DATABASE_URL: '',
    TEMPORAL_ADDRESS: '',
    ...o.env,
  };
  const args = ['--pg-port', String(pgPort), '--temporal-port', String(temporalPort), '--temporal-ui-port', String(uiPort)];
  const d = startDaemon('scripts/start.ts', env, { args });
  const supervisorPid = d.child.pid!;
  const said: string[] = [];
  let partial = '';
  const collect = (b: Buffer) => {
    const parts = (partial + b.toString()).split('\n');
    partial = parts.pop()!;
    said.push(...parts.filter((l) => l.startsWith('• ') || l.startsWith('!! ')));
  };
  d.child.stdout!.on('data', collect);
  d.child.stderr!.on('data', collect);
  if (o.logFile) {
    const log = fs.createWriteStream(o.logFile, { flags: 'a' });
    d.child.stdout!.pipe(log, { end: false });
    d.child.stderr!.pipe(log, { end: false });
    d.child.once('close', () => log.end());
  }
  const stack: OwnStack = {
    supervisorPid,
    apiUrl: `http://127.0.0.1:${apiPort}`,
    workerMetricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    // Trust auth on the system cluster ignores the password; the embedded one needs it.
    pgUrl: (db) => `postgres://postgres:postgres@127.0.0.1:${pgPort}/${db}`,
    temporalAddress: `127.0.0.1:${temporalPort}`,
    pid: (name) => supervisedPid(supervisorPid, name),
    output: d.output,
    supervisorLines: () => [...said],
    stop: async (timeoutMs = 90_000) => {
      if (d.child.exitCode === null && d.child.signalCode === null) d.child.kill('SIGTERM');
      await waitFor('npm start to stop', async () => d.child.exitCode !== null || d.child.signalCode !== null, timeoutMs);
      return d.child.exitCode;
    },
    kill: async () => {
      const children = childProcesses(supervisorPid).map((p) => p.pid);
      await d.kill();
      for (const pid of children) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    },
  };
  try {
    await waitFor(
      'npm start to be ready',
      async () => d.output().includes('Press Ctrl-C to stop'),
      o.readyTimeoutMs ?? 180_000,
      () => (d.child.exitCode !== null ? `it exited with code ${d.child.exitCode}:\n${d.output().slice(-3000)}` : undefined),
    );
  } catch (e) {
    await stack.kill();
    throw e;
  }
  return stack;
}
