import { Router } from 'express';
import type { MintReadStore } from '../../db/mint/mint-read-store';
import type { PredictionStore } from '../../db/mint/prediction-store';
import type { CommittedMark } from '../../db/ledger/ledger-proof-store';
import { notFound } from '../http/http-error';

export type MintRouteDeps = {
  mintReadStore: MintReadStore;
  predictionStore: PredictionStore;
  /** Which of these predictions the ledger has committed (api/ledger). */
  ledgerCommitted: (predictionIds: number[]) => Promise<Map<number, CommittedMark>>;
  now: () => Date;
};

const hourStart = (d: Date) => new Date(Math.floor(d.getTime() / 3_600_000) * 3_600_000);

export function mintRoutes(d: MintRouteDeps): Router {
  const r = Router();

  // Every logged (age bucket × probability) row, with the outcome once resolved.
  r.get('/api/predictions/by_mint/:mint', async (req, res) => {
    const mint = await d.mintReadStore.getMint(req.params.mint);
    if (!mint) throw notFound(`mint ${req.params.mint} has not been seen by this service`);
    const rows = await d.predictionStore.byMint(mint.mint);
    const committed = await d.ledgerCommitted(rows.map((p) => p.id));
    res.set('Cache-Control', 'public, max-age=10').json({
      mint: mint.mint,
      count: rows.length,
      predictions: rows.map((p) => ({
        prediction_id: p.id,
        age_bucket: p.ageBucket,
        predicted_prob: p.gradProb,
        predicted_at: p.predictedAt.toISOString(),
        model_version: p.modelVersion,
        ledger_hour_start: hourStart(p.predictedAt).toISOString(),
        committed: committed.has(p.id),
        committed_at: committed.get(p.id)?.committedAt.toISOString() ?? null,
        proof_url: committed.has(p.id) ? `/api/ledger/proof/${p.id}` : null,
        did_graduate: p.graduated,
        resolved_at: p.resolvedAt ? p.resolvedAt.toISOString() : null,
      })),
    });
  });
  return r;
}
