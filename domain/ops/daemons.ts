/** The long-running processes whose heartbeats `/api/status` and the watchdog watch. */
export const DAEMONS = ['api', 'worker', 'ingest', 'scheduler'] as const;
export type DaemonName = (typeof DAEMONS)[number];

export type DaemonState = 'up' | 'stale' | 'never_seen';

/** How old a heartbeat may be before its daemon counts as stale. The scheduler beats once a watchdog minute. */
export function staleAfterS(name: DaemonName, heartbeatIntervalS: number, watchdogIntervalS: number): number {
  return name === 'scheduler' ? watchdogIntervalS * 3 : heartbeatIntervalS * 4;
}

export function daemonState(lastSeenMs: number | null, nowMs: number, staleAfter: number): DaemonState {
  if (lastSeenMs === null) return 'never_seen';
  return (nowMs - lastSeenMs) / 1000 > staleAfter ? 'stale' : 'up';
}
