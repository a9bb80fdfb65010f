import { execFile } from 'node:child_process';
import path from 'node:path';

const AUTOCANNON = path.resolve(__dirname, '..', '..', 'node_modules', 'autocannon', 'autocannon.js');

export type LoadFigures = { rps: number; p50: number; p99: number; total: number; non2xx: number; errors: number; statuses: string };

/**
 * autocannon in a process of its own (its CLI, `--json`), so the load generator never shares an event loop with
 * the server it measures. Closed loop: `connections` keep-alive connections, each sending its next request when
 * the previous one has answered.
 */
export function runLoad(o: { url: string; connections: number; durationS: number; headers?: Record<string, string> }): Promise<LoadFigures> {
  const args = [AUTOCANNON, '--json', '--no-progress', '-c', String(o.connections), '-d', String(o.durationS)];
  for (const [k, v] of Object.entries(o.headers ?? {})) args.push('-H', `${k}=${v}`);
  args.push(o.url);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024, timeout: (o.durationS + 60) * 1000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`autocannon failed: ${String(stderr) || err.message}`));
      const r = JSON.parse(String(stdout)) as {
        requests: { average: number; total: number };
        latency: { p50: number; p99: number };
        non2xx: number;
        errors: number;
        timeouts: number;
        statusCodeStats?: Record<string, { count: number }>;
      };
      resolve({
        rps: Math.round(r.requests.average),
        p50: r.latency.p50,
        p99: r.latency.p99,
        total: r.requests.total,
        non2xx: r.non2xx,
        errors: r.errors + r.timeouts,
        statuses: Object.entries(r.statusCodeStats ?? {})
          .map(([code, s]) => `${code}×${s.count}`)
          .join(' '),
      });
    });
  });
}
