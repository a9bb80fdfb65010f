import { proxyActivities } from '@temporalio/workflow';
import type { WalletRebuildActivities } from '../../activities/wallets/wallet-rebuild-activities';
import type { WalletRanksResult } from './wallet-ranks-contract';

// One read of the index; the next tick comes in minutes, so retry a little and never pile up.
const acts = proxyActivities<WalletRebuildActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 3, initialInterval: '5 seconds', backoffCoefficient: 2 },
});

/** Refreshes the rank snapshot of the published score version (ranks on wallet records); started by a Temporal Schedule. */
export async function refreshWalletRanks(): Promise<WalletRanksResult> {
  return acts.refreshWalletRanks({});
}
