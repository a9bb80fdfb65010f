import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * One of the project's daemons (`ingest/main-ingest.ts`, `workers/main-worker.ts`) as a real OS process, so a
 * test can SIGKILL it mid-stream the way a crash or an OOM kill would, and start it again; benchmarks run the
 * daemons the same way, each in its own process as in production.
 */
export function startDaemon(
  entry: string,
  env: Record<string, string>,
  o: { args?: string[] } = {},
): { child: ChildProcess; kill: () => Promise<void>; output: () => string } {
  let out = '';
  // node with tsx as a loader, not the tsx CLI: the CLI runs the program in a child process, which a SIGKILL of
  // the CLI would leave running.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, entry), ...(o.args ?? [])], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (b: Buffer) => (out = (out + b.toString()).slice(-20_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    child,
    output: () => out,
    // No goodbye: nothing is flushed, nothing is closed cleanly.
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
