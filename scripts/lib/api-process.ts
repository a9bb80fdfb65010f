import { spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from './local-temporal';
import { waitFor } from './run';

const root = path.resolve(__dirname, '..', '..');

/**
 * `api/server.ts` as its own process (its own memory and event loop, as in production), configured only
 * by environment variables. Resolves once /api/health answers.
 */
export async function spawnApiServer(
  env: Record<string, string>,
  o: { timeoutMs?: number } = {},
): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const port = env.API_PORT ? Number(env.API_PORT) : await freePort();
  const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), [path.join(root, 'api', 'server.ts')], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, API_HOST: '127.0.0.1', API_PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`API process on ${port}`, async () => child.exitCode === null && (await fetch(`${url}/api/health`)).ok, o.timeoutMs ?? 60_000);
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  return {
    url,
    /** The tsx launcher's pid: the API runs as its child (and, with API_PROCESSES > 1, that child's children). */
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
