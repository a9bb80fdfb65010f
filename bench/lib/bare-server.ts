import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { freePort, portOpen } from '../../scripts/lib/local-temporal';
import { waitFor } from '../../scripts/lib/run';

/** One response as the API sent it, to be served again byte for byte by the bare server. */
export type RecordedAnswer = { url: string; gzip: boolean; status: number; headers: [string, string][]; bodyBase64: string };

/** Headers every server adds for itself (or that describe the connection, not the answer). */
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** One raw GET (not fetch, which would decompress): the exact status, headers and body bytes. */
export function recordAnswer(base: string, url: string, headers: Record<string, string>): Promise<RecordedAnswer & { bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(base + url, { headers }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (b: Buffer) => parts.push(b));
        res.on('end', () => {
          const body = Buffer.concat(parts);
          const kept: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            if (!CONNECTION_HEADERS.has(res.rawHeaders[i]!.toLowerCase())) kept.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
          }
          const gzip = /\bgzip\b/.test(headers['accept-encoding'] ?? '');
          resolve({ url, gzip, status: res.statusCode ?? 0, headers: kept, bodyBase64: body.toString('base64'), bytes: body.length });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The bare server (`node`: http only; `express`: a minimal Express app) in its own process, serving the recorded answers. */
export async function startBareServer(
  answers: RecordedAnswer[],
  workDir: string,
  kind: 'node' | 'express' = 'node',
): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  fs.mkdirSync(workDir, { recursive: true });
  const manifest = path.join(workDir, `${kind}-answers.json`);
  fs.writeFileSync(manifest, JSON.stringify(answers));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'bare-server-main.ts'), manifest, String(port), kind], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  await waitFor(
    'the bare server',
    () => portOpen(port),
    30_000,
    () => (child.exitCode !== null ? 'it exited' : undefined),
  );
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
