import { proxyActivities } from '@temporalio/workflow';
import type { LedgerCommitActivities } from '../../activities/ledger/ledger-commit-activities';
import type { LedgerCommitResult, LedgerHourInput } from './ledger-commit-contract';

// Reading and hashing a large hour takes seconds; a database outage is retried for several minutes, and a
// permanent refusal (an unbuildable row, rows changed since sealing) fails at once, naming the row.
const acts = proxyActivities<LedgerCommitActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
});

/** Commits one sealed hour of one track (workflow id `ledger-commit:<track>:<hour>`); idempotent down to the store. */
export async function ledgerHourCommit(input: LedgerHourInput): Promise<LedgerCommitResult> {
  return acts.commitLedgerHour(input);
}
