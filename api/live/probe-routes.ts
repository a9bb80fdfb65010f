import { Router } from 'express';
import type { LiveReadModel } from '../../db/live/live-read-model';
import type { MintReadStore } from '../../db/mint/mint-read-store';
import { notFound } from '../http/http-error';

/** `/api/v1/probe/:mint`: the enriched record of any mint the service has seen, assembled as the live list's are. */
export function probeRoutes(d: { mintReadStore: MintReadStore; readModel: LiveReadModel; now: () => Date }): Router {
  const r = Router();
  // The full enriched record, even for mints the dashboard would hide (hide_reason says why).
  r.get('/api/v1/probe/:mint', async (req, res) => {
    const now = d.now();
    const mint = await d.mintReadStore.getMint(req.params.mint);
    if (!mint) throw notFound(`mint ${req.params.mint} has not been seen by this service`);
    if (mint.mayhem) throw notFound(`mint ${req.params.mint} is a mayhem-mode mint, which is out of scope`);
    const [enriched] = await d.readModel.enriched([mint], now);
    res.set('Cache-Control', 'no-store').json(enriched);
  });
  return r;
}
