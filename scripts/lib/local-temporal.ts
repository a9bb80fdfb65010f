import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { run, waitFor } from './run';

const root = path.resolve(__dirname, '..', '..');

/** Finds or builds the Temporal CLI (see scripts/ensure-temporal-cli.sh). */
export async function ensureTemporalCli(): Promise<string> {
  const out = await run('bash', [path.join(root, 'scripts', 'ensure-temporal-cli.sh')], { timeout: 20 * 60_000 });
  return out.trim().split('\n').pop()!;
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
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
  });
}

export type LocalTemporal = { address: string; uiUrl: string | undefined; process: ChildProcess | undefined; stop: () => Promise<void> };

/**
 * `temporal server start-dev` on loopback. With a db file, workflows survive a restart;
 * without one (tests) the server keeps everything in memory.
 */
export async function startLocalTemporal(opts: { port: number; uiPort?: number; dbFile?: string; logFile?: string }): Promise<LocalTemporal> {
  const address = `127.0.0.1:${opts.port}`;
  const uiUrl = opts.uiPort ? `http://127.0.0.1:${opts.uiPort}` : undefined;
  if (await portOpen(opts.port)) return { address, uiUrl, process: undefined, stop: async () => undefined };

  const cli = await ensureTemporalCli();
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(opts.port), '--log-level', 'warn'];
  if (opts.uiPort) args.push('--ui-port', String(opts.uiPort));
  else args.push('--headless');
  if (opts.dbFile) {
    fs.mkdirSync(path.dirname(opts.dbFile), { recursive: true });
    args.push('--db-filename', opts.dbFile);
  }
  if (opts.logFile) fs.mkdirSync(path.dirname(opts.logFile), { recursive: true });
  const out = opts.logFile ? fs.openSync(opts.logFile, 'a') : 'ignore';
  const child = spawn(cli, args, { stdio: ['ignore', out, out], detached: false });
  await waitFor('temporal dev server', () => portOpen(opts.port), 60_000);
  return {
    address,
    uiUrl,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}
