import { proxyActivities } from '@temporalio/workflow';
import type { BurnActivities } from '../../activities/billing/burn-activities';
import type { BurnRecordInput, BurnRecordResult } from './burn-record-contract';

// A burn just sent can take a few seconds to be served at `confirmed`, and the node can be down: retry for about
// ten minutes. What can never become this burn (a failed transaction, another token, obligations not open) fails at once.
const { recordExecutedBurn } = proxyActivities<BurnActivities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 15,
  },
});

/** Records one executed holder-token burn, verified on chain, and settles the obligations it covers. */
export async function recordBurn(input: BurnRecordInput): Promise<BurnRecordResult> {
  return recordExecutedBurn(input);
}
