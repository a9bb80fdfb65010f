import { Router } from 'express';
import type { MarketConditionsStore } from '../../db/market/market-conditions-store';
import { HISTORY_DAYS } from '../../domain/market/market-temperature';
import { unavailable } from '../http/http-error';
import { preparedKeyedRead } from '../http/prepared-keyed-read';
import { createPreparedRead } from '../http/prepared-read';
import type { KeyedReads } from '../http/keyed-reads';

/** The temperature is recomputed by a scheduled workflow; the API serves its one stored row. */
export function conditionsRoutes(d: {
  marketConditionsStore: MarketConditionsStore;
  conditionsRefreshS: number;
  conditionsMinHistoryH: number;
  readCacheTtlMs: number;
  keyedReads: KeyedReads;
}): Router {
  const r = Router();
  const cacheControl = `public, max-age=${Math.min(60, d.conditionsRefreshS)}`;
  // Keyed (the access check runs first); the row is read once per `readCacheTtlMs`.
  const conditions = createPreparedRead(
    async () => {
      const s = await d.marketConditionsStore.latest();
      const retry = Math.min(300, d.conditionsRefreshS);
      if (!s) throw unavailable('market conditions have not been computed yet; the refresher runs every few minutes', retry);
      if (s.state === 'warming' || !s.conditions) {
        throw unavailable(
          `warming up: ${s.historyHours} of the ${d.conditionsMinHistoryH} complete hours of our own history needed to rank the market against`,
          retry,
        );
      }
      const c = s.conditions;
      return {
        computed_at: s.computedAt.toISOString(),
        temperature: c.temperature,
        label: c.label,
        history_days: HISTORY_DAYS,
        history_coverage_days: Math.min(HISTORY_DAYS, Math.round((c.historyHours / 24) * 100) / 100),
        components: c.components,
      };
    },
    { ttlMs: d.readCacheTtlMs },
  );
  // The body is the same for every key: while it is fresh, the answer goes out in the turn the request arrived.
  r.get('/api/v1/conditions', d.keyedReads.register('/api/v1/conditions', preparedKeyedRead(conditions, cacheControl)));
  return r;
}
