import fs from 'node:fs';
import { percentile } from '../../domain/ops/latency-window';

export type ProcessGroup = { name: string; pids: () => number[] };

/** The p-quantile (0..1) of unsorted samples; NaN when there are none. */
export function quantiles(xs: readonly number[], q: number): number {
  return (
    percentile(
      [...xs].sort((a, b) => a - b),
      q * 100,
    ) ?? NaN
  );
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0; // exited
  }
}

/**
 * Peak resident memory in KiB: the kernel's high-water mark for a single process; for a group (Postgres's
 * backends) the current sum, since their high-water marks each count the shared buffers again.
 */
export function peakRss(pids: number[]): number {
  if (pids.length === 1) return statusKb(pids[0]!, 'VmHWM');
  return pids.reduce((s, p) => s + statusKb(p, 'VmRSS'), 0);
}
