import type { MarketContext } from '../../domain/perps/perps-types';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/** How long mark-price samples are kept: the 24 h horizon's judging plus a day of slack for a late or down worker. */
export const MARK_PRICE_RETENTION_MS = 48 * 3_600_000;

export type StoredMarket = MarketContext & { exchange: string; updatedAt: Date };
export type MarkSample = { at: Date; price: number };

/**
 * Markets and their asset contexts (latest per market) and the mark-price buffer: one sample per market per
 * markets poll, the price series of `/api/perps/market/{market}` and the prices entries are judged at.
 */
export function createPerpsMarketStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /** Writes one poll: the latest context per market and a mark sample each; idempotent on (exchange, market, at). */
    async recordPoll(exchange: string, markets: readonly MarketContext[], at: Date): Promise<void> {
      if (!markets.length) return;
      await db.transaction(async (trx) => {
        await trx('perps_markets')
          .insert(
            markets.map((m) => ({
              exchange,
              market: m.market,
              mark_px: m.markPx,
              oracle_px: m.oraclePx,
              mid_px: m.midPx,
              funding_rate_hourly: m.fundingRateHourly,
              open_interest_base: m.openInterestBase,
              open_interest_usd: m.openInterestUsd,
              volume_24h_usd: m.volume24hUsd,
              prev_day_px: m.prevDayPx,
              max_leverage: m.maxLeverage,
              updated_at: at,
            })),
          )
          .onConflict(['exchange', 'market'])
          .merge();
        await trx('perps_mark_prices')
          .insert(markets.filter((m) => m.markPx > 0).map((m) => ({ exchange, market: m.market, at, price: m.markPx })))
          .onConflict(['exchange', 'market', 'at'])
          .ignore();
        await trx('perps_mark_prices')
          .where('at', '<', new Date(at.getTime() - MARK_PRICE_RETENTION_MS))
          .delete();
      });
    },

    /** The latest mark of every market of `exchange`. */
    async marks(exchange: string): Promise<Record<string, number>> {
      const rows: { market: string; mark_px: number }[] = await db('perps_markets').where({ exchange }).select('market', 'mark_px');
      return Object.fromEntries(rows.map((r) => [r.market, r.mark_px]));
    },

    /** The first sample at or after `dueAt` (the price an entry is judged at), or undefined while none exists yet. */
    async firstMarkAtOrAfter(exchange: string, market: string, dueAt: Date): Promise<MarkSample | undefined> {
      const r = await db('perps_mark_prices').where({ exchange, market }).andWhere('at', '>=', dueAt).orderBy('at').first('at', 'price');
      return r && { at: r.at, price: r.price };
    },

    async series(exchange: string, market: string, since: Date): Promise<MarkSample[]> {
      const rows = await db('perps_mark_prices').where({ exchange, market }).andWhere('at', '>=', since).orderBy('at').select('at', 'price');
      return rows.map((r: { at: Date; price: number }) => ({ at: r.at, price: r.price }));
    },

    async market(exchange: string, market: string): Promise<StoredMarket | undefined> {
      const r = await db('perps_markets').where({ exchange, market }).first();
      return r && toMarket(r);
    },

    async all(exchange: string): Promise<StoredMarket[]> {
      return (await db('perps_markets').where({ exchange }).orderBy('market')).map(toMarket);
    },

    /** Markets by 24 h volume, largest first (which the trades stream follows). */
    async topByVolume(exchange: string, limit: number): Promise<string[]> {
      const rows = await db('perps_markets').where({ exchange }).orderBy('volume_24h_usd', 'desc').limit(limit).select('market');
      return rows.map((r: { market: string }) => r.market);
    },
  };
}
export type PerpsMarketStore = ReturnType<typeof createPerpsMarketStore>;

function toMarket(r: Record<string, any>): StoredMarket {
  return {
    exchange: r.exchange,
    market: r.market,
    markPx: r.mark_px,
    oraclePx: r.oracle_px,
    midPx: r.mid_px,
    fundingRateHourly: r.funding_rate_hourly,
    openInterestBase: r.open_interest_base,
    openInterestUsd: r.open_interest_usd,
    volume24hUsd: r.volume_24h_usd,
    prevDayPx: r.prev_day_px,
    maxLeverage: r.max_leverage,
    updatedAt: r.updated_at,
  };
}
