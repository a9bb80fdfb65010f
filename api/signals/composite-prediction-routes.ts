import { Router } from 'express';
import type { CompositePredictionRow, CompositePredictionStore } from '../../db/signals/composite-prediction-store';

export type CompositePredictionRouteDeps = { predictionStore: CompositePredictionStore };

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

const view = (p: CompositePredictionRow) => ({
  id: p.id,
  mint: p.mint,
  crossed_at: p.crossedAt.toISOString(),
  age_s: r6(p.ageS),
  smart_money_in: p.smartMoneyIn,
  max_mult: r6(p.maxMult),
  freshness: r6(p.freshness),
  composite: r6(p.composite),
  threshold: r6(p.threshold),
  threshold_kind: p.thresholdKind,
  market_cap_usd: r6(p.marketCapUsd),
  tier: p.tier,
  gp_60: p.gp60,
  gp_30: p.gp30,
  tier_rules_version: p.tierRulesVersion,
  composite_version: p.compositeVersion,
  threshold_quantile: r6(p.thresholdQuantile),
  threshold_samples: p.thresholdSamples,
  price_at_cross_sol: p.priceAtCrossSol,
  sol_usd_at_cross: r6(p.solUsdAtCross),
  leaf_version: p.leafVersion,
  resolves_at: p.resolvesAt.toISOString(),
  label_version: p.labelVersion,
  did_graduate: p.didGraduate,
  peak_mult_24h: p.peakMult24h === null ? null : r6(p.peakMult24h),
  did_sustain_30m: p.didSustain30m,
  resolved_at: p.resolvedAt ? p.resolvedAt.toISOString() : null,
});

/** `GET /api/v1/composite_predictions`: the log of first crosses (tiered rows), newest first, outcomes once resolved. */
export function compositePredictionRoutes(d: CompositePredictionRouteDeps): Router {
  const r = Router();
  r.get('/api/v1/composite_predictions', async (req, res) => {
    const q = req.query as { limit?: number; offset?: number; only_resolved?: boolean };
    const limit = q.limit ?? 50;
    const offset = q.offset ?? 0;
    const onlyResolved = q.only_resolved ?? false;
    const page = await d.predictionStore.page({ limit, offset, onlyResolved });
    res
      .set('Cache-Control', 'no-store')
      .json({ limit, offset, only_resolved: onlyResolved, total: page.total, count: page.rows.length, rows: page.rows.map(view) });
  });
  return r;
}
