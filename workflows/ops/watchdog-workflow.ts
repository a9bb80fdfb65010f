import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { WatchdogActivities } from '../../activities/ops/watchdog-activities';
import { evaluateWatchdog } from '../../domain/ops/watchdog-rules';
import type { WatchdogResult } from './watchdog-contract';

// Sampling is cheap and the next tick comes in a minute: retry briefly, never pile up.
const acts = proxyActivities<WatchdogActivities>({
  startToCloseTimeout: '20 seconds',
  retry: { maximumAttempts: 3, initialInterval: '1 second', backoffCoefficient: 2 },
});

/** One watchdog tick, started every minute by a Temporal Schedule. */
export async function watchdogTick(): Promise<WatchdogResult> {
  const [host, stuck, staleHeartbeats] = await Promise.all([acts.sampleHost(), acts.countStuckWorkflows(), acts.findStaleHeartbeats()]);
  const observation = { ...host, stuck, staleHeartbeats };
  const alerts = evaluateWatchdog(observation);
  const { raised, cleared } = await acts.recordWatchdogTick({ tickKey: workflowInfo().workflowId, observation, alerts });
  return { raised, cleared, alerts: alerts.length };
}
