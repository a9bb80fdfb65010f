import fs from 'node:fs/promises';
import os from 'node:os';
import type { Client } from '@temporalio/client';
import type { HeartbeatStore } from '../../db/ops/heartbeat-store';
import type { WatchdogStore } from '../../db/ops/watchdog-store';
import { DAEMONS, daemonState, staleAfterS } from '../../domain/ops/daemons';
import type { AlertCandidate, HostSample, WatchdogObservation } from '../../domain/ops/watchdog-rules';

export type WatchdogDeps = {
  watchdogStore: WatchdogStore;
  heartbeatStore: HeartbeatStore;
  temporal: Client;
  diskPath: string;
  /** Workflow type → how long an execution may stay open before it counts as stuck. */
  workflowDeadlinesS: Record<string, number>;
  heartbeatIntervalS: number;
  watchdogIntervalS: number;
  /** Daemons that are deployed in this topology; the others are not expected to beat. */
  expectedDaemons: readonly string[];
  now: () => Date;
};

export function createWatchdogActivities(d: WatchdogDeps) {
  return {
    async sampleHost(): Promise<HostSample> {
      const s = await fs.statfs(d.diskPath);
      return {
        disk: { path: d.diskPath, totalBytes: s.blocks * s.bsize, freeBytes: s.bavail * s.bsize },
        memory: { totalBytes: os.totalmem(), availableBytes: os.freemem() },
      };
    },

    /** Counts open workflows past their deadline, per type, through Temporal's visibility API. */
    async countStuckWorkflows(): Promise<WatchdogObservation['stuck']> {
      const now = d.now().getTime();
      const byType: Record<string, number> = {};
      let count = 0;
      for (const [type, deadlineS] of Object.entries(d.workflowDeadlinesS)) {
        const before = new Date(now - deadlineS * 1000).toISOString();
        const query = `WorkflowType = '${type}' AND ExecutionStatus = 'Running' AND StartTime < '${before}'`;
        const { count: n } = await d.temporal.workflow.count(query);
        byType[type] = n;
        count += n;
      }
      return { count, byType };
    },

    async findStaleHeartbeats(): Promise<string[]> {
      const latest = new Map((await d.heartbeatStore.latest()).map((h) => [h.name, h.lastSeenAt.getTime()]));
      const now = d.now().getTime();
      return DAEMONS.filter((name) => name !== 'scheduler' && d.expectedDaemons.includes(name)).filter(
        (name) => daemonState(latest.get(name) ?? null, now, staleAfterS(name, d.heartbeatIntervalS, d.watchdogIntervalS)) !== 'up',
      );
    },

    async recordWatchdogTick(input: { tickKey: string; observation: WatchdogObservation; alerts: AlertCandidate[] }) {
      const at = d.now();
      const result = await d.watchdogStore.recordTick(input.tickKey, at, input.observation, input.alerts);
      // The Schedule firing this tick is the scheduler's heartbeat.
      await d.heartbeatStore.beat('scheduler', 'temporal-schedules', at, at);
      return result;
    },
  };
}
export type WatchdogActivities = ReturnType<typeof createWatchdogActivities>;
