import { createHolderBalanceClient } from '../../clients/solana/holder-balance-client';
import { createApiKeyStore } from '../../db/access/api-key-store';
import { createWalletLinkStore } from '../../db/access/wallet-link-store';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createWalletSignupActivities } from './wallet-signup-activities';

export const accessActivities = defineActivityArea({
  name: 'access',
  deps: ({ cfg, db, now }: Pick<WorkerContext, 'cfg' | 'db' | 'now'>) => ({
    apiKeyStore: createApiKeyStore(db, { now }),
    walletLinkStore: createWalletLinkStore(db),
    holderBalances: createHolderBalanceClient({ rpcUrl: cfg.access.holder.rpcUrl, mint: cfg.access.holder.mint }),
    keyRevealSecret: cfg.access.keyRevealSecret,
    now,
  }),
  activities: createWalletSignupActivities,
});
