import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { waitFor } from './run';
import { exitedEarly, spawnService, type SpawnedService } from './supervised-child';

const root = path.resolve(__dirname, '..', '..');

/**
 * Finds, downloads or builds the Temporal CLI (see scripts/ensure-temporal-cli.sh) and returns its path. What it is
 * doing (a download, a build) is passed to `progress` line by line, by default to our stderr.
 */
export function ensureTemporalCli(progress: (line: string) => void = (l) => console.error(l)): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [path.join(root, 'scripts', 'ensure-temporal-cli.sh')], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 20 * 60_000 });
    let out = '';
    let partial = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => {
      const lines = (partial + b.toString()).split('\n');
      partial = lines.pop()!;
      for (const l of lines) if (l.trim()) progress(l.trim());
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (partial.trim()) progress(partial.trim());
      if (code === 0 && out.trim()) resolve(out.trim().split('\n').pop()!);
      else reject(new Error(`no Temporal CLI (scripts/ensure-temporal-cli.sh exited with ${code}); see the lines above`));
    });
  });
}

/** A port the OS says is free right now (for test servers that must not collide with each other). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export function portOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ port, host });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

export type LocalTemporal = { address: string; uiUrl: string | undefined; process: ChildProcess | undefined; stop: () => Promise<void> };
export type TemporalOptions = { port: number; uiPort?: number; dbFile?: string; logFile?: string };

/**
 * `temporal server start-dev` on loopback. With a db file, workflows survive a restart;
 * without one (tests) the server keeps everything in memory. A server already answering on the port is used as
 * it is (and not stopped).
 */
export async function startLocalTemporal(opts: TemporalOptions): Promise<LocalTemporal> {
  const address = `127.0.0.1:${opts.port}`;
  const uiUrl = opts.uiPort ? `http://127.0.0.1:${opts.uiPort}` : undefined;
  if (await portOpen(opts.port)) return { address, uiUrl, process: undefined, stop: async () => undefined };
  const t = await launchLocalTemporal(await ensureTemporalCli(), opts, { detached: false });
  return { address, uiUrl, process: t.child, stop: t.stop };
}

/**
 * Starts the dev server (the port must be free) and resolves once it accepts connections; rejects if it exits
 * first. `detached` gives it its own process group, so only its supervisor decides when it stops.
 */
export async function launchLocalTemporal(cli: string, opts: TemporalOptions, o: { detached: boolean }): Promise<SpawnedService> {
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(opts.port), '--log-level', 'warn'];
  if (opts.uiPort) args.push('--ui-port', String(opts.uiPort));
  else args.push('--headless');
  if (opts.dbFile) {
    fs.mkdirSync(path.dirname(opts.dbFile), { recursive: true });
    args.push('--db-filename', opts.dbFile);
  }
  if (opts.logFile) fs.mkdirSync(path.dirname(opts.logFile), { recursive: true });
  const t = spawnService(cli, args, { logFile: opts.logFile, echo: false, detached: o.detached, stopSignal: 'SIGTERM', graceMs: 10_000 });
  try {
    await waitFor(
      'the temporal dev server',
      () => portOpen(opts.port),
      60_000,
      () => exitedEarly(t.child, t.output),
    );
  } catch (e) {
    await t.stop();
    throw e;
  }
  return t;
}
