import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../../scripts/lib/local-temporal';
import { waitFor } from '../../scripts/lib/run';

const root = path.resolve(__dirname, '..', '..');

export type ApiUnderTest = { url: string; pid: number; inspectorPort: number | undefined; stop: () => Promise<void> };

/**
 * `api/server.ts` as its own process, configured only by environment variables (the narrowest entry point, so
 * the benchmark survives refactors of the API's wiring). Its stdout and stderr go to `logFile`, as a container
 * runtime would take them, so access logs cost what they cost in production. With `inspect`, the V8 inspector
 * listens on a loopback port for the CPU profiler (bench/lib/cpu-profiler.ts). Resolves once /livez answers.
 */
export async function startApiProcess(o: { env: Record<string, string>; logFile: string; inspect?: boolean }): Promise<ApiUnderTest> {
  const port = await freePort();
  const inspectorPort = o.inspect ? await freePort() : undefined;
  fs.mkdirSync(path.dirname(o.logFile), { recursive: true });
  const out = fs.openSync(o.logFile, 'w');
  const flags = inspectorPort ? [`--inspect=127.0.0.1:${inspectorPort}`] : [];
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', path.join(root, 'api', 'server.ts')], {
    cwd: root,
    env: { ...process.env, API_METRICS_PORT: String(await freePort()), ...o.env, API_HOST: '127.0.0.1', API_PORT: String(port) },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = `http://127.0.0.1:${port}`;
  const tail = () => fs.readFileSync(o.logFile, 'utf8').slice(-2000);
  try {
    await waitFor(
      `the API on ${port}`,
      async () => (await fetch(`${url}/livez`)).ok,
      60_000,
      () => (child.exitCode !== null ? `the API exited: ${tail()}` : undefined),
    );
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  return {
    url,
    pid: child.pid!,
    inspectorPort,
    // SIGTERM: the server closes and exits on its own; a process that hangs is killed after 15 s.
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
