import { spawn } from 'node:child_process';
import path from 'node:path';

const CHILD = path.resolve(__dirname, 'serial-probe-main.ts');

/**
 * GETs `paths` strictly one at a time from a process of its own (one keep-alive connection), and returns each one's
 * latency in ms after the first `warmup`. The bench's own heap (often hundreds of megabytes of fixtures) then never
 * pauses the client inside a measured request; interleave a reference path in `paths` to compare in the same run.
 */
export function serialProbe(base: string, paths: readonly string[], warmup: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += String(c)));
    child.stderr.on('data', (c) => (err += String(c)));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as number[]) : reject(new Error(`serial probe failed: ${err}`))));
    child.stdin.end(JSON.stringify({ base, paths, warmup }));
  });
}
