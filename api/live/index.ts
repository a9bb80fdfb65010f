import { createLiveReadModel } from '../../db/live/live-read-model';
import { createMintReadStore } from '../../db/mint/mint-read-store';
import { createScoreEvidenceStore } from '../../db/mint/score-evidence-store';
import { defineApiArea } from '../api-area';
import { liveRoutes } from './live-routes';
import { liveSnapshots } from './live-snapshots';
import { probeRoutes } from './probe-routes';
import { runnersRoutes } from './runners-routes';

/** The live area's reads: the live lists the projector writes, the runners ranked from them, and any mint's enriched record. */
export const liveApi = defineApiArea({
  name: 'live',
  deps: (ctx) => ({
    cache: liveSnapshots(ctx).live,
    delayedCache: liveSnapshots(ctx).delayed,
    staleAfterS: ctx.cfg.live.staleAfterS,
    mintReadStore: createMintReadStore(ctx.db),
    scoreEvidence: createScoreEvidenceStore(ctx.db),
    readModel: createLiveReadModel(ctx.db, ctx.readPorts.live()),
    now: ctx.now,
    keyedReads: ctx.keyedReads,
    publicReads: ctx.publicReads,
  }),
  parts: (d) => ({ routes: [liveRoutes(d), probeRoutes(d), runnersRoutes(d)] }),
});
