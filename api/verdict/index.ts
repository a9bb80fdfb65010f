import { createLedgerCommitStore } from '../../db/ledger/ledger-commit-store';
import { createLedgerProofStore } from '../../db/ledger/ledger-proof-store';
import { createLedgerRows } from '../../db/ledger/ledger-row-sources';
import { readRegisteredDocument } from '../../db/verdict/preregistration-document';
import { createVerdictStore } from '../../db/verdict/verdict-store';
import { COMPOSITE_TIERS_V1 } from '../../domain/verdict/preregistration';
import { registrationWithT0 } from '../../domain/verdict/verdict-status';
import { defineApiArea } from '../api-area';
import { verdictRoutes } from './verdict-routes';

export const verdictApi = defineApiArea({
  name: 'verdict',
  deps: ({ cfg, db }) => {
    const registration = registrationWithT0(COMPOSITE_TIERS_V1, cfg.verdict.t0Override);
    // Read at start: an image without its registration document should not serve a verdict at all.
    const document = readRegisteredDocument(registration);
    return {
      verdictStore: createVerdictStore(db),
      registration,
      document: () => document,
      commitStore: createLedgerCommitStore(db),
      proofStore: createLedgerProofStore(db),
      verdictRows: createLedgerRows(db).find((r) => r.track === 'verdict')!,
      graceS: cfg.ledger.graceS,
      commitEveryS: cfg.ledger.commitEveryS,
    };
  },
  parts: (d) => ({ routes: [verdictRoutes(d)] }),
});
