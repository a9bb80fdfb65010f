import { proxyActivities } from '@temporalio/workflow';
import type { MarketConditionsActivities } from '../../activities/market/market-conditions-activities';
import type { ConditionsRefreshResult } from './market-conditions-contract';

// Rolling up a backlog of hours scans many trades, hence the generous timeout; a failed run is retried a few
// times and otherwise left to the next scheduled one while the API keeps serving the last result.
const acts = proxyActivities<MarketConditionsActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 5, initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/** Rolls up hourly market activity and recomputes the temperature index; started by a Temporal Schedule. */
export async function refreshMarketConditions(): Promise<ConditionsRefreshResult> {
  return acts.refreshMarketConditions();
}
