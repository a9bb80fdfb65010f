import { Router } from 'express';
import type { LiveReadModel } from '../../db/live/live-read-model';
import type { MintReadStore } from '../../db/mint/mint-read-store';
import type { ScoreEvidenceStore } from '../../db/mint/score-evidence-store';
import { notFound } from '../http/http-error';
import { similarLaunchesBody } from './similar-launches-body';

/**
 * `/api/v1/probe/:mint`: the enriched record of any mint the service has seen, assembled as the live list's are, with
 * the evidence behind its latest logged score (the similar launches logged with it).
 */
export function probeRoutes(d: { mintReadStore: MintReadStore; scoreEvidence: ScoreEvidenceStore; readModel: LiveReadModel; now: () => Date }): Router {
  const r = Router();
  // The full enriched record, even for mints the dashboard would hide (hide_reason says why).
  r.get('/api/v1/probe/:mint', async (req, res) => {
    const now = d.now();
    const mint = await d.mintReadStore.getMint(req.params.mint);
    if (!mint) throw notFound(`mint ${req.params.mint} has not been seen by this service`);
    if (mint.mayhem) throw notFound(`mint ${req.params.mint} is a mayhem-mode mint, which is out of scope`);
    const [[enriched], evidence] = await Promise.all([d.readModel.enriched([mint], now), d.scoreEvidence.latest(mint.mint)]);
    // No `mint` here: the address is the path parameter, and the published clients read the probe body flat
    // (`goracle probe` takes `result.mint || result`, so an address string there hides every field).
    const { mint: _address, ...fields } = enriched!;
    res.set('Cache-Control', 'no-store').json({ ...fields, similar_launches: similarLaunchesBody(evidence) });
  });
  return r;
}
