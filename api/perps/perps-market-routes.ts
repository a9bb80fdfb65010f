import { Router } from 'express';
import type { PerpsEntryStore } from '../../db/perps/perps-entry-store';
import type { PerpsReadModel } from '../../db/perps/perps-read-model';
import { notFound } from '../http/http-error';
import { entryJson, winRatesJson } from './perps-json';

export type PerpsMarketDeps = { exchange: string; entryStore: PerpsEntryStore; readModel: PerpsReadModel; now: () => Date };

/** The price series: the last 24 h, one mark per 5 minutes (288 points at most). */
const SERIES_HOURS = 24;
const SERIES_BUCKET_S = 300;

/** GET /api/perps/market/{market}: smart money positioned on it, judged win rates, recent smart entries, the price series. */
export function perpsMarketRoutes(d: PerpsMarketDeps): Router {
  const r = Router();
  r.get('/api/perps/market/:market', async (req, res) => {
    const market = String(req.params.market);
    const now = d.now();
    if (!(await d.readModel.knownMarket(d.exchange, market))) throw notFound(`market ${market} is not listed on ${d.exchange}`);
    const [positions, sums, entries, series] = await Promise.all([
      d.readModel.smartPositionsIn(d.exchange, market),
      d.entryStore.winSums('market', market),
      d.readModel.recentEntries({ market, exchange: d.exchange, smartOnly: true }, 20),
      d.readModel.priceSeries(d.exchange, market, new Date(now.getTime() - SERIES_HOURS * 3_600_000), SERIES_BUCKET_S),
    ]);
    const sum = (side: 'long' | 'short') => positions.filter((p) => p.side === side).reduce((s, p) => s + p.positionValueUsd, 0);
    const wallets = (side: 'long' | 'short') => new Set(positions.filter((p) => p.side === side).map((p) => p.wallet)).size;
    res.set('Cache-Control', 'public, max-age=5').json({
      market,
      generated_at: now.toISOString(),
      smart_money: {
        long_wallets: wallets('long'),
        short_wallets: wallets('short'),
        long_notional_usd: sum('long'),
        short_notional_usd: sum('short'),
        positions: positions.slice(0, 50).map((p) => ({
          wallet: p.wallet,
          exchange: p.exchange,
          side: p.side,
          notional_usd: p.positionValueUsd,
          entry_price: p.entryPx,
          entered_at: p.openedAt.toISOString(),
          smart_score: p.smartScore,
        })),
      },
      win_rate_by_horizon: winRatesJson(sums),
      recent_entries: entries.map(entryJson),
      price_series: series.map((s) => ({ t: s.at.toISOString(), price: s.price })),
    });
  });
  return r;
}
