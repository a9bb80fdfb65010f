import { createHeartbeatStore } from '../../db/ops/heartbeat-store';
import { createWatchdogStore } from '../../db/ops/watchdog-store';
import { WORKFLOW_CONTRACTS } from '../../workflows/workflow-contracts';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createWatchdogActivities } from './watchdog-activities';

/** How long each workflow type may stay open before the watchdog calls it stuck, as its contract declares. */
const workflowDeadlinesS = () => Object.fromEntries(WORKFLOW_CONTRACTS.flatMap((c) => (c.deadlineS === undefined ? [] : [[c.workflowType, c.deadlineS]])));

export const opsActivities = defineActivityArea({
  name: 'ops',
  deps: ({ cfg, db, temporal, now }: WorkerContext) => ({
    watchdogStore: createWatchdogStore(db),
    heartbeatStore: createHeartbeatStore(db),
    temporal,
    diskPath: cfg.watchdog.diskPath,
    workflowDeadlinesS: workflowDeadlinesS(),
    heartbeatIntervalS: cfg.heartbeatIntervalS,
    watchdogIntervalS: cfg.watchdog.intervalS,
    expectedDaemons: cfg.expectedDaemons,
    now,
  }),
  activities: createWatchdogActivities,
});
