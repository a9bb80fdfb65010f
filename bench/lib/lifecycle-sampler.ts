import type { Client } from '@temporalio/client';
import { MINT_LIFECYCLE_WORKFLOW } from '../../workflows/mint/mint-lifecycle-contract';
import { cpuSeconds, rssMiB } from './proc-stat';

/** A process, or several (Postgres), with how to read their CPU seconds when summing live pids would not do. */
export type ProcessGroup = { name: string; pids: () => number[]; cpuSeconds?: () => number };
export type Sample = { at: number; launched: number; open: number | null; rss: Record<string, number>; cpu: Record<string, number> };

/**
 * Every `everyMs`: resident memory and CPU seconds so far of each process group (worker, Temporal, Postgres), the
 * launches made, and the lifecycles Temporal counts as running (visibility; null when the count fails).
 */
export function startSampler(o: { client: Client; groups: ProcessGroup[]; launched: () => number; everyMs: number }) {
  const samples: Sample[] = [];
  let stopped = false;
  const query = `WorkflowType = '${MINT_LIFECYCLE_WORKFLOW}' AND ExecutionStatus = 'Running'`;
  const takeOne = async () => {
    const at = Date.now();
    const rss: Record<string, number> = {};
    const cpu: Record<string, number> = {};
    for (const g of o.groups) {
      const pids = g.pids();
      rss[g.name] = pids.reduce((s, p) => s + rssMiB(p), 0);
      cpu[g.name] = g.cpuSeconds ? g.cpuSeconds() : pids.reduce((s, p) => s + (cpuSeconds(p) || 0), 0);
    }
    const open = await o.client.workflow.count(query).then(
      (c) => c.count,
      () => null,
    );
    samples.push({ at, launched: o.launched(), open, rss, cpu });
  };
  const loop = (async () => {
    while (!stopped) {
      const started = Date.now();
      await takeOne();
      await new Promise((r) => setTimeout(r, Math.max(0, o.everyMs - (Date.now() - started))));
    }
  })();
  return {
    samples,
    stop: async () => {
      stopped = true;
      await loop;
      await takeOne();
    },
  };
}
