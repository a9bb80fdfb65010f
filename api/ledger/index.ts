import { createLedgerCommitStore } from '../../db/ledger/ledger-commit-store';
import { createLedgerProofStore } from '../../db/ledger/ledger-proof-store';
import { createLedgerRows } from '../../db/ledger/ledger-row-sources';
import { defineApiArea } from '../api-area';
import { ledgerCommitRoutes } from './ledger-commit-routes';
import { ledgerProofRoutes } from './ledger-proof-routes';

export const ledgerApi = defineApiArea({
  name: 'ledger',
  deps: ({ cfg, db, log, now }) => ({
    commitStore: createLedgerCommitStore(db),
    proofStore: createLedgerProofStore(db),
    rows: createLedgerRows(db),
    graceS: cfg.ledger.graceS,
    commitEveryS: cfg.ledger.commitEveryS,
    log,
    now,
  }),
  parts: (d) => ({ routes: [ledgerCommitRoutes(d), ledgerProofRoutes(d)] }),
});
