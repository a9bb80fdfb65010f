import { Router } from 'express';
import type { BaseRateStore } from '../../db/accuracy/base-rate-store';
import { BASE_RATE_MULTIPLES } from '../../domain/accuracy/base-rates';
import { unavailable } from '../http/http-error';
import { iso } from '../http/iso';
import { sendPreparedRead } from '../http/prepared-body';
import { createPreparedRead } from '../http/prepared-read';
import type { PublicReads } from '../http/public-reads';

export type BaseRatesRouteDeps = { baseRateStore: BaseRateStore; baseRatesRefreshS: number; readCacheTtlMs: number; publicReads: PublicReads };

const CACHE_CONTROL = 'public, max-age=60';
const SOURCES = ['live', 'backfill', 'synthetic'] as const;

/** `GET /api/base_rates`: the projection the scheduled activity writes, read as one row once per read-cache period. */
export function baseRatesRoutes(d: BaseRatesRouteDeps): Router {
  const r = Router();
  const read = createPreparedRead(
    async () => {
      const p = await d.baseRateStore.read();
      if (!p) throw unavailable('the base rates have not been computed yet; they are recomputed in the background', d.baseRatesRefreshS);
      return {
        computed_at: iso(p.computedAt),
        window: {
          days: p.windowDays,
          from: iso(p.windowFrom),
          to: iso(p.windowTo),
          first_resolved_at: iso(p.window.firstResolvedAt),
          last_resolved_at: iso(p.window.lastResolvedAt),
          launches: p.window.launches,
          sources: Object.fromEntries(SOURCES.map((s) => [s, p.window.sources[s] ?? 0])),
        },
        label_version: p.labelVersion,
        rug_label_version: p.rugLabelVersion,
        multiples: BASE_RATE_MULTIPLES,
        cells: p.cells,
      };
    },
    { ttlMs: d.readCacheTtlMs },
  );
  d.publicReads.register('/api/base_rates', read, CACHE_CONTROL);
  r.get('/api/base_rates', async (req, res) => sendPreparedRead(req, res, await read.get(), CACHE_CONTROL));
  return r;
}
