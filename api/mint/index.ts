import { createLedgerProofStore } from '../../db/ledger/ledger-proof-store';
import { createMintReadStore } from '../../db/mint/mint-read-store';
import { createPredictionStore } from '../../db/mint/prediction-store';
import { defineApiArea } from '../api-area';
import { mintRoutes } from './mint-routes';

export const mintApi = defineApiArea({
  name: 'mint',
  deps: (ctx) => ({
    mintReadStore: createMintReadStore(ctx.db),
    predictionStore: createPredictionStore(ctx.db),
    ledgerCommitted: (ids: number[]) => createLedgerProofStore(ctx.db).committed('grad_prob', ids),
    now: ctx.now,
  }),
  parts: (d) => ({ routes: [mintRoutes(d)] }),
});
