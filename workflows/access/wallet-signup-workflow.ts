import { allHandlersFinished, condition, proxyActivities, setHandler, sleep } from '@temporalio/workflow';
import type { WalletSignupActivities } from '../../activities/access/wallet-signup-activities';
import {
  signUpdate,
  signupStateQuery,
  type SignResult,
  type WalletSignupInput,
  type WalletSignupResult,
  type WalletSignupState,
} from './wallet-signup-contract';

const acts = proxyActivities<WalletSignupActivities>({
  startToCloseTimeout: '20 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds', maximumAttempts: 5 },
});

/**
 * One holder signup (`wallet-link:<link_id>`): pending → fulfilled | ineligible | expired. Signatures arrive
 * as updates and are checked one at a time (a bad signature leaves the link pending for another try). When
 * the link is fulfilled the poll may show the key for `keyVisibleS`; then the sealed copy is wiped. The
 * workflow never sees the plaintext key: the activity that mints it seals it straight into Postgres.
 */
export async function walletSignup(input: WalletSignupInput): Promise<WalletSignupResult> {
  const state: WalletSignupState = { status: 'pending', recorded: false };
  let closing = false;
  let busy = false;

  setHandler(signupStateQuery, () => state);
  setHandler(signUpdate, async ({ signature }): Promise<SignResult> => {
    await condition(() => state.recorded && !busy);
    if (closing && state.status === 'pending') return { outcome: 'expired' };
    if (state.status !== 'pending') return { outcome: state.status };
    busy = true;
    try {
      const r = await acts.completeWalletSignup({
        linkId: input.linkId,
        wallet: input.wallet,
        message: input.message,
        threshold: input.threshold,
        signature,
        keyVisibleS: input.keyVisibleS,
      });
      if (r.outcome === 'fulfilled' || r.outcome === 'ineligible' || r.outcome === 'expired') state.status = r.outcome;
      return r;
    } finally {
      busy = false;
    }
  });

  await acts.recordWalletLinkPending(input);
  state.recorded = true;

  const settled = await condition(() => state.status !== 'pending', Math.max(1, Date.parse(input.expiresAt) - new Date().getTime()));
  if (!settled) {
    closing = true;
    // A signature being checked right now finishes first; only a link still pending then expires.
    await condition(() => !busy);
    if (state.status === 'pending') state.status = await acts.expireWalletLink({ linkId: input.linkId });
  }
  if (state.status === 'fulfilled') {
    await sleep(input.keyVisibleS * 1000);
    await acts.withholdWalletLinkKey({ linkId: input.linkId });
  }
  await condition(allHandlersFinished);
  return { status: state.status };
}
