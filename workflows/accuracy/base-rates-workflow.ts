import { proxyActivities } from '@temporalio/workflow';
import type { BaseRatesActivities } from '../../activities/accuracy/base-rates-activities';
import type { BaseRatesResult } from './base-rates-contract';

// One read-compute-write over a window of resolved launches; the next tick recomputes it all, so retry a little.
const acts = proxyActivities<BaseRatesActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 3, initialInterval: '5 seconds', backoffCoefficient: 2 },
});

/** Rewrites the base-rates projection; started by a Temporal Schedule (BASE_RATES_REFRESH_S). */
export async function projectBaseRates(): Promise<BaseRatesResult> {
  return acts.projectBaseRates();
}
