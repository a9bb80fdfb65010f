import { createMemoAnchorClient, loadAnchorKeypair } from '../../clients/solana/memo-anchor-client';
import { createLedgerAnchorStore } from '../../db/ledger/ledger-anchor-store';
import { createLedgerCommitStore } from '../../db/ledger/ledger-commit-store';
import { createLedgerRows } from '../../db/ledger/ledger-row-sources';
import { createLedgerSealStore } from '../../db/ledger/ledger-seal-store';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createLedgerAnchorActivities } from './ledger-anchor-activities';
import { createLedgerCommitActivities } from './ledger-commit-activities';

export const ledgerActivities = defineActivityArea({
  name: 'ledger',
  deps: ({ cfg, db, now }: Pick<WorkerContext, 'cfg' | 'db' | 'now'>) => {
    const anchor = cfg.ledger.anchor;
    return {
      ledgerRows: createLedgerRows(db),
      sealStore: createLedgerSealStore(db),
      commitStore: createLedgerCommitStore(db),
      anchorStore: createLedgerAnchorStore(db),
      graceS: cfg.ledger.graceS,
      anchoring: anchor !== null,
      // The key is read here, at the worker's start, so a bad key file stops the worker with its name (never its bytes).
      anchorClient: anchor ? createMemoAnchorClient({ url: anchor.rpcUrl, keypair: loadAnchorKeypair(anchor.key) }) : null,
      confirmWaitMs: 30_000,
      pollMs: 1000,
      now,
    };
  },
  activities: (d) => ({ ...createLedgerCommitActivities(d), ...createLedgerAnchorActivities(d) }),
});
