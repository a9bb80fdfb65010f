import { createPaperPositionStore } from '../../db/paper/paper-position-store';
import { defineApiArea } from '../api-area';
import { paperRoutes } from './paper-routes';

export const paperApi = defineApiArea({
  name: 'paper',
  deps: (ctx) => ({ paperStore: createPaperPositionStore(ctx.db), paperConfig: ctx.cfg.paper.config, tickMs: ctx.cfg.paper.tickMs, now: ctx.now }),
  parts: (d) => ({ routes: [paperRoutes(d)] }),
});
