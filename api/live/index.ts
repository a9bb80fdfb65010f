import { defineApiArea } from '../api-area';
import { liveRoutes } from './live-routes';
import { liveSnapshots } from './live-snapshots';

export const liveApi = defineApiArea({
  name: 'live',
  deps: (ctx) => ({
    cache: liveSnapshots(ctx).live,
    delayedCache: liveSnapshots(ctx).delayed,
    staleAfterS: ctx.cfg.mint.liveStaleAfterS,
    now: ctx.now,
    keyedReads: ctx.keyedReads,
  }),
  parts: (d) => ({ routes: [liveRoutes(d)] }),
});
