import { Router } from 'express';
import type { PerpsEntryStore } from '../../db/perps/perps-entry-store';
import type { PerpsRankStore } from '../../db/perps/perps-rank-store';
import type { PerpsReadModel } from '../../db/perps/perps-read-model';
import type { PerpsWalletStore } from '../../db/perps/perps-wallet-store';
import { notFound } from '../http/http-error';
import { entryJson, positionJson, winRatesJson } from './perps-json';

export type PerpsWalletDeps = { walletStore: PerpsWalletStore; entryStore: PerpsEntryStore; rankStore: PerpsRankStore; readModel: PerpsReadModel };

/** GET /api/perps/wallet/{address}: a watched wallet's record, positions, judged win rates, entries and ranks. */
export function perpsWalletRoutes(d: PerpsWalletDeps): Router {
  const r = Router();
  r.get('/api/perps/wallet/:address', async (req, res) => {
    const address = String(req.params.address).toLowerCase();
    const rows = await d.walletStore.walletAnywhere(address);
    if (!rows.length) throw notFound(`wallet ${address} has never been watched by the perps observatory`);
    // A wallet is watched on one live exchange; should it be on two, the record with the most fills speaks for it.
    const main = [...rows].sort((a, b) => (b.record?.trades ?? -1) - (a.record?.trades ?? -1))[0]!;
    const rec = main.record;
    const [positions, sums, entries, ranks] = await Promise.all([
      d.readModel.positionsOf(address),
      d.entryStore.winSums('wallet', address),
      d.readModel.recentEntries({ wallet: address }, 20),
      d.rankStore.history(address, 30),
    ]);
    const lastSeen = rows.map((w) => (w.lastSnapshotAt ?? w.lastActiveAt).getTime()).reduce((a, b) => Math.max(a, b));
    const firstSeen = rows.map((w) => w.discoveredAt.getTime()).reduce((a, b) => Math.min(a, b));
    res.set('Cache-Control', 'public, max-age=5').json({
      address,
      lifetime: {
        trades: rec?.trades ?? 0,
        volume_usd: rec?.volumeUsd ?? 0,
        realized_pnl_usd: rec?.realizedPnlUsd ?? 0,
        win_rate: rec?.winRate ?? null,
        smart_score: main.smartScore,
        first_seen_at: new Date(firstSeen).toISOString(),
        last_seen_at: new Date(lastSeen).toISOString(),
      },
      open_positions: positions.map(positionJson),
      win_rate_by_horizon: winRatesJson(sums),
      recent_entries: entries.map(entryJson),
      leaderboard_history: ranks.map((x) => ({ date: x.date, rank: x.rank, smart_score: x.smartScore })),
    });
  });
  return r;
}
