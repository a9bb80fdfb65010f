import { proxyActivities } from '@temporalio/workflow';
import type { PerpsLedgerActivities, PerpsLedgerResult } from '../../activities/perps/perps-ledger-activities';

const acts = proxyActivities<PerpsLedgerActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 5, initialInterval: '2 seconds', backoffCoefficient: 2 },
});

/** Commits the closed hours of smart entries to the perps ledger track; started by a Schedule. */
export async function perpsLedgerCommit(): Promise<PerpsLedgerResult> {
  return acts.commitPerpsLedger();
}
