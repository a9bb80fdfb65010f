import { Router } from 'express';
import type { PriceStore } from '../../db/market/price-store';
import { isPriceStale } from '../../domain/market/native-coin';
import { unavailable } from '../http/http-error';

export function nativeCoinPriceRoutes(d: { priceStore: PriceStore; refreshIntervalS: number; now: () => Date }): Router {
  const r = Router();
  r.get('/api/native_coin_price', async (_req, res) => {
    const q = await d.priceStore.latestQuote('SOL');
    if (!q) throw unavailable('no native-coin price has been fetched yet; the refresher runs every few minutes', Math.min(60, d.refreshIntervalS));
    const now = d.now().getTime();
    const s = q.status;
    const down = !!s && s.consecutiveFailures > 0;
    res.set('Cache-Control', 'public, max-age=15').json({
      symbol: q.symbol,
      mint: q.mint,
      usd: q.usd,
      source: q.source,
      fetched_at: q.fetchedAt.toISOString(),
      age_s: Math.max(0, (now - q.fetchedAt.getTime()) / 1000),
      stale: isPriceStale(q.fetchedAt.getTime(), now, d.refreshIntervalS),
      refresh_interval_s: d.refreshIntervalS,
      source_status: {
        state: down ? 'down' : 'ok',
        last_attempt_at: (s?.lastAttemptAt ?? q.fetchedAt).toISOString(),
        last_error: down ? (s?.lastError ?? null) : null,
        consecutive_failures: s?.consecutiveFailures ?? 0,
      },
    });
  });
  return r;
}
