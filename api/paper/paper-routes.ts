import { Router } from 'express';
import type { PaperPositionStore } from '../../db/paper/paper-position-store';
import { PAPER_STRATEGIES, type PaperConfig } from '../../domain/paper/paper-config';
import { realisedPnl } from '../../domain/paper/paper-position';
import { selectPostmortems } from '../../domain/paper/postmortems';
import { summarizeStrategy } from '../../domain/paper/strategy-summary';
import { configJson, thresholdJson } from './paper-views';
import { capRows } from '../http/query-caps';

export type PaperRouteDeps = { paperStore: PaperPositionStore; paperConfig: PaperConfig; tickMs: number; now: () => Date };

export function paperRoutes(d: PaperRouteDeps): Router {
  const r = Router();

  // Every strategy's figures from its position rows (open ones marked at their last stored quote).
  r.get('/api/paper', async (_req, res) => {
    const generatedAt = d.now();
    const [startedAt, ...positions] = await Promise.all([d.paperStore.firstOpenedAt(), ...PAPER_STRATEGIES.map((s) => d.paperStore.byStrategy(s.id))]);
    res.set('Cache-Control', 'no-store').json({
      generated_at: generatedAt.toISOString(),
      started_at: startedAt ? startedAt.toISOString() : null,
      config: configJson(d.paperConfig, d.tickMs),
      thresholds: PAPER_STRATEGIES.map((s, i) => thresholdJson(summarizeStrategy(s, positions[i]!, d.paperConfig))),
    });
  });

  // Closed losing trades, newest close first, each with the enriched mint as the API served it at entry.
  r.get('/api/postmortems', async (req, res) => {
    const q = req.query as { min_loss_pct?: number; limit?: number; require_context?: boolean };
    const minLossPct = q.min_loss_pct ?? 0.3;
    const limit = capRows(q.limit ?? 50);
    const requireContext = q.require_context ?? true;
    const rows = await d.paperStore.losses(minLossPct, limit);
    const byKey = new Map(rows.map((r) => [`${r.position.strategy}:${r.position.mint}`, r]));
    const picked = selectPostmortems(
      rows.map((r) => ({ position: r.position, entrySnapshot: r.entrySnapshot ?? null })),
      { minLossPct, limit, requireContext },
    );
    res.set('Cache-Control', 'no-store').json({
      min_loss_pct: minLossPct,
      require_context: requireContext,
      count: picked.length,
      postmortems: picked.map((p) => {
        const row = byKey.get(`${p.position.strategy}:${p.position.mint}`)!;
        const e = p.position.entry.fill;
        const x = p.position.exit!;
        return {
          trade_id: row.id,
          mint: p.position.mint,
          name: row.name,
          symbol: row.symbol,
          threshold: row.threshold,
          strategy: p.position.strategy,
          opened_at: new Date(p.position.openedAtMs).toISOString(),
          closed_at: new Date(x.atMs).toISOString(),
          entry_price_sol: e.effectivePriceSol,
          exit_price_sol: x.fill.effectivePriceSol,
          entry_spot_price_sol: e.spotPriceSol,
          exit_spot_price_sol: x.fill.spotPriceSol,
          entry_slippage: e.slippage,
          exit_slippage: x.fill.slippage,
          exit_venue: x.fill.venue,
          loss_pct: p.lossPct,
          pnl_sol: realisedPnl(p.position)!.pnlSol,
          exit_reason: x.reason,
          entry_snapshot: p.entrySnapshot,
        };
      }),
    });
  });
  return r;
}
