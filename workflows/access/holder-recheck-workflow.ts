import { proxyActivities } from '@temporalio/workflow';
import type { WalletSignupActivities } from '../../activities/access/wallet-signup-activities';
import type { HolderRecheckResult } from './holder-recheck-contract';

const acts = proxyActivities<WalletSignupActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute', maximumAttempts: 3 },
});

/**
 * Re-reads the holder-token balance of every linked wallet (run by a Temporal Schedule), so a key's access
 * upgrades while the tokens are held and reverts after a sale. A wallet whose read fails keeps its last
 * credited balance until a later run reads it.
 */
export async function recheckHolderBalances(): Promise<HolderRecheckResult> {
  const total: HolderRecheckResult = { checked: 0, changed: 0, failed: 0 };
  let afterId = 0;
  for (;;) {
    const page = await acts.recheckHolderPage({ afterId, limit: 200 });
    total.checked += page.checked;
    total.changed += page.changed;
    total.failed += page.failed;
    if (page.lastId === null) return total;
    afterId = page.lastId;
  }
}
