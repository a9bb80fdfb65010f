import { Router } from 'express';
import type { LiveStore } from '../../db/mint/live-store';
import type { GateStore } from '../../db/accuracy/gate-store';
import type { CreatorStore } from '../../db/mint/creator-store';
import { pairKey, type MintReadStore } from '../../db/mint/mint-read-store';
import type { PredictionStore } from '../../db/mint/prediction-store';
import type { PriceStore } from '../../db/market/price-store';
import { enrichMint } from '../../domain/mint/enriched-mint';
import { SURVIVAL_GATE } from '../../domain/accuracy/survival-gate';
import { creatorRecord } from '../../domain/mint/creator-record';
import { MintTape } from '../../domain/mint/mint-tape';
import { LABEL_VERSION } from '../../domain/mint/outcome-labels';
import { unknownBuyers } from '../../domain/mint/wallet-freshness';
import { notFound } from '../http/http-error';

export type MintRouteDeps = {
  mintReadStore: MintReadStore;
  liveStore: LiveStore;
  predictionStore: PredictionStore;
  priceStore: PriceStore;
  creatorStore: CreatorStore;
  gateStore: GateStore;
  now: () => Date;
};

const hourStart = (d: Date) => new Date(Math.floor(d.getTime() / 3_600_000) * 3_600_000);

export function mintRoutes(d: MintRouteDeps): Router {
  const r = Router();

  // The full enriched record, even for mints the dashboard would hide (hide_reason says why).
  r.get('/api/v1/probe/:mint', async (req, res) => {
    const now = d.now();
    const mint = await d.mintReadStore.getMint(req.params.mint);
    if (!mint) throw notFound(`mint ${req.params.mint} has not been seen by this service`);
    if (mint.mayhem) throw notFound(`mint ${req.params.mint} is a mayhem-mode mint, which is out of scope`);
    const tape = new MintTape(mint);
    for (const t of await d.mintReadStore.tradesUntil(mint.mint, now)) tape.apply(t);
    const buyers = unknownBuyers(tape, new Map());
    const [predictions, creators, own, price, gate, seen] = await Promise.all([
      d.liveStore.latestPredictions([mint.mint]),
      d.creatorStore.aggregates([mint.creator], LABEL_VERSION),
      d.creatorStore.ownOutcome(mint.mint, LABEL_VERSION),
      d.priceStore.latestQuote('SOL'),
      d.gateStore.read(SURVIVAL_GATE.name),
      d.mintReadStore.walletsWithHistory(buyers.map((wallet) => ({ mint: mint.mint, wallet }))),
    ]);
    res.set('Cache-Control', 'no-store').json(
      enrichMint({
        tape,
        now,
        prediction: predictions.get(mint.mint) ?? null,
        creator: creatorRecord(creators.get(mint.creator) ?? null, own),
        solUsd: price?.usd ?? null,
        freshness: new Map(buyers.map((w) => [w, !seen.has(pairKey(mint.mint, w))])),
        graduatedAt: mint.graduatedAt,
        survivalLive: gate?.state === 'live',
      }),
    );
  });

  // Every logged (age bucket × probability) row, with the outcome once resolved.
  r.get('/api/predictions/by_mint/:mint', async (req, res) => {
    const mint = await d.mintReadStore.getMint(req.params.mint);
    if (!mint) throw notFound(`mint ${req.params.mint} has not been seen by this service`);
    const rows = await d.predictionStore.byMint(mint.mint);
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
        // The hourly merkle ledger is not live yet: nothing is committed.
        committed: false,
        did_graduate: p.graduated,
        resolved_at: p.resolvedAt ? p.resolvedAt.toISOString() : null,
      })),
    });
  });
  return r;
}
