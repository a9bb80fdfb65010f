import { childProcesses } from '../../scripts/lib/process-table';

export type Sample = { name: string; labels: Record<string, string>; value: number };

/** A Prometheus text exposition as samples (enough of the format for prom-client's output). */
export function parseMetrics(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

export async function scrape(url: string): Promise<Sample[]> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url} answered ${r.status}`);
  return parseMetrics(await r.text());
}

/** The value of the first sample of `name` whose labels include `labels`. */
export const sampleValue = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

const API_ENTRY = /api\/server\.ts/;

/** The serving processes of an API cluster: the primary's children that run api/server.ts. */
export const clusterWorkerPids = (primary: number): number[] =>
  childProcesses(primary)
    .filter((p) => API_ENTRY.test(p.cmdline))
    .map((p) => p.pid);

/**
 * The cluster under a launcher (`spawnApiServer`'s tsx): the primary is the launcher's node child running
 * api/server.ts, the serving processes are the primary's children.
 */
export function clusterPids(launcherPid: number): { primary: number | undefined; workers: number[] } {
  const primary = childProcesses(launcherPid).find((p) => API_ENTRY.test(p.cmdline))?.pid;
  return { primary, workers: primary ? clusterWorkerPids(primary) : [] };
}
