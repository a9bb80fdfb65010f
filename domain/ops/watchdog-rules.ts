/**
 * The watchdog's alert rules: a pure function from one host sample to the alerts that should be open.
 * The store reconciles them with what is open already (raise new, refresh existing, clear the rest).
 */
export type HostSample = {
  disk: { path: string; totalBytes: number; freeBytes: number };
  memory: { totalBytes: number; availableBytes: number };
};

export type WatchdogObservation = HostSample & {
  stuck: { count: number; byType: Record<string, number> };
  staleHeartbeats: string[];
};

export type AlertCandidate = {
  code: string;
  severity: 'warning' | 'critical';
  message: string;
  value: number;
  threshold: number;
};

export const THRESHOLDS = {
  diskUsedWarnPct: 85,
  diskUsedCriticalPct: 95,
  memoryUsedWarnPct: 90,
  stuckWorkflows: 1,
} as const;

export const usedPct = (total: number, free: number) => (total <= 0 ? 0 : round1((100 * (total - free)) / total));
const round1 = (x: number) => Math.round(x * 10) / 10;

export function evaluateWatchdog(o: WatchdogObservation): AlertCandidate[] {
  const alerts: AlertCandidate[] = [];
  const disk = usedPct(o.disk.totalBytes, o.disk.freeBytes);
  if (disk >= THRESHOLDS.diskUsedWarnPct) {
    const critical = disk >= THRESHOLDS.diskUsedCriticalPct;
    alerts.push({
      code: 'disk_low',
      severity: critical ? 'critical' : 'warning',
      message: `disk ${o.disk.path} is ${disk}% used`,
      value: disk,
      threshold: critical ? THRESHOLDS.diskUsedCriticalPct : THRESHOLDS.diskUsedWarnPct,
    });
  }
  const mem = usedPct(o.memory.totalBytes, o.memory.availableBytes);
  if (mem >= THRESHOLDS.memoryUsedWarnPct) {
    alerts.push({ code: 'memory_high', severity: 'warning', message: `memory is ${mem}% used`, value: mem, threshold: THRESHOLDS.memoryUsedWarnPct });
  }
  if (o.stuck.count >= THRESHOLDS.stuckWorkflows) {
    const kinds = Object.entries(o.stuck.byType)
      .filter(([, n]) => n > 0)
      .map(([t, n]) => `${t}: ${n}`)
      .join(', ');
    alerts.push({
      code: 'stuck_workflows',
      severity: 'critical',
      message: `workflows open past their deadline (${kinds})`,
      value: o.stuck.count,
      threshold: THRESHOLDS.stuckWorkflows,
    });
  }
  for (const name of o.staleHeartbeats) {
    alerts.push({ code: `heartbeat_stale:${name}`, severity: 'critical', message: `${name} has not sent a heartbeat in time`, value: 1, threshold: 1 });
  }
  return alerts;
}
