import { Router } from 'express';
import type { EnrichedMint } from '../../domain/live/enriched-mint';
import type { RunnerTierKey } from '../../domain/scoring/runner-model';
import { requireSnapshot, type LiveSnapshotCache } from './live-snapshot-cache';

type RunnersQuery = { limit?: number; tier?: RunnerTierKey; min_prob?: number };

const oddsOf = (m: EnrichedMint, tier: RunnerTierKey): number | null => m[`runner_prob_${tier}_from_now`];

/**
 * Live mints ranked by from-now runner odds of one tier, read from the live projection (the same snapshot as
 * /api/live): mints the dashboard hides are not ranked, and odds exist only while the mint's score is shown.
 */
export function runnersRoutes(d: { cache: LiveSnapshotCache }): Router {
  const r = Router();
  r.get('/api/v1/runners', async (req, res) => {
    const q = req.query as unknown as RunnersQuery;
    const tier = q.tier ?? '5x';
    const minProb = q.min_prob ?? 0.05;
    const limit = q.limit ?? 30;
    const live = (await requireSnapshot(d.cache)).parsed();
    const ranked = live.mints
      .flatMap((m) => {
        const p = oddsOf(m, tier);
        return p !== null && p >= minProb ? [{ ...m, runner_prob: p }] : [];
      })
      .sort((a, b) => b.runner_prob - a.runner_prob || b.created_at.localeCompare(a.created_at))
      .slice(0, limit);
    res.set('Cache-Control', 'no-store').json({ generated_at: live.generated_at, tier, min_prob: minProb, count: ranked.length, mints: ranked });
  });
  return r;
}
