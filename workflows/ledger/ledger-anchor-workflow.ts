import { proxyActivities } from '@temporalio/workflow';
import type { LedgerAnchorActivities } from '../../activities/ledger/ledger-anchor-activities';
import type { LedgerAnchorInput, LedgerAnchorResult } from './ledger-anchor-contract';

// A node that is down only delays the anchor: retried without a limit, backing off to every 5 minutes (the watchdog
// flags a run open for a day). Each attempt resends the same signed transaction until it lands or its blockhash expires.
const acts = proxyActivities<LedgerAnchorActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/** Publishes one commit's root in a Solana memo and records the transaction (workflow id `ledger-anchor:<track>:<hour>`). */
export async function ledgerAnchor(input: LedgerAnchorInput): Promise<LedgerAnchorResult> {
  return acts.anchorLedgerCommit(input);
}
