import { Router } from 'express';
import type { SmartCriteria, SmartScoreVersion } from '../../domain/wallets/smart-score';
import { requireSnapshot, type LiveSnapshotCache } from '../live/live-snapshot-cache';

type SmartMoneyBody = {
  generated_at: string;
  min_total: number;
  min_smart_score: number;
  smart_score_version: string | null;
  count: number;
  mints: { smart_money_in: number }[];
};

export type SmartMoneyRouteDeps = {
  /** The projector's smart-money snapshot, written with the live list (db/live/live-store.ts SMART_MONEY_SNAPSHOT). */
  smartMoneyCache: LiveSnapshotCache;
  scoreVersion: () => Promise<SmartScoreVersion>;
  smartCriteria: SmartCriteria;
};

/**
 * `/api/v1/smart_money_active`: the live list's mints with at least `min_smart` smart wallets among their top buyers,
 * already in the documented order (smart wallets descending, grad_prob descending with nulls last, mint), so a request
 * filters and cuts the snapshot and reads nothing else.
 */
export function smartMoneyRoutes(d: SmartMoneyRouteDeps): Router {
  const r = Router();
  r.get('/api/v1/smart_money_active', async (req, res) => {
    const q = req.query as { limit?: number; min_smart?: number };
    const minSmart = q.min_smart ?? 1;
    const limit = q.limit ?? 50;
    const body = (await requireSnapshot(d.smartMoneyCache)).parsed() as unknown as SmartMoneyBody;
    const mints = body.mints.filter((m) => m.smart_money_in >= minSmart).slice(0, limit);
    res.set('Cache-Control', 'no-store').json({
      generated_at: body.generated_at,
      min_smart: minSmart,
      min_total: body.min_total ?? d.smartCriteria.minTotal,
      min_smart_score: body.min_smart_score ?? d.smartCriteria.minScore,
      smart_score_version: body.smart_score_version ?? (await d.scoreVersion()).id,
      count: mints.length,
      mints,
    });
  });
  return r;
}
