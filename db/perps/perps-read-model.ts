import type { PerpsSide } from '../../domain/perps/perps-types';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type EntryView = {
  id: number;
  exchange: string;
  wallet: string;
  market: string;
  side: PerpsSide;
  kind: 'new' | 'increase';
  size: number;
  entryPx: number;
  priceAtDetection: number;
  notionalUsd: number;
  leverage: number;
  walletRoi30d: number | null;
  smartScore: number | null;
  smart: boolean;
  whale: boolean;
  ruleVersion: string;
  entryRuleVersion: string;
  detectedAt: Date;
};
export type PositionView = {
  exchange: string;
  wallet: string;
  market: string;
  side: PerpsSide;
  size: number;
  entryPx: number;
  positionValueUsd: number;
  unrealizedPnlUsd: number | null;
  openedAt: Date;
  smartScore: number | null;
};

/** The observatory's reads for the API: entries, positions, counters, the price series. */
export function createPerpsReadModel(handle: Db) {
  const db = knexOf(handle);
  return {
    async recentEntries(where: { wallet?: string; market?: string; exchange?: string; smartOnly?: boolean }, limit: number): Promise<EntryView[]> {
      const rows = await db('perps_entries')
        .modify((q) => {
          if (where.wallet) q.where('wallet', where.wallet);
          if (where.market) q.where('market', where.market);
          if (where.exchange) q.where('exchange', where.exchange);
          if (where.smartOnly) q.where('smart', true);
        })
        .orderBy('detected_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit);
      return rows.map(toEntry);
    },

    async positionsOf(wallet: string): Promise<PositionView[]> {
      const rows = await db('perps_positions as p')
        .join('perps_wallets as w', function () {
          this.on('w.exchange', 'p.exchange').andOn('w.wallet', 'p.wallet');
        })
        .where('p.wallet', wallet)
        .orderBy('p.position_value_usd', 'desc')
        .select('p.*', 'w.smart_score');
      return rows.map(toPosition);
    },

    /** Open positions of wallets that are smart now, in one market, largest first. */
    async smartPositionsIn(exchange: string, market: string): Promise<PositionView[]> {
      const rows = await db('perps_positions as p')
        .join('perps_wallets as w', function () {
          this.on('w.exchange', 'p.exchange').andOn('w.wallet', 'p.wallet');
        })
        .where({ 'p.exchange': exchange, 'p.market': market, 'w.smart': true })
        .orderBy('p.position_value_usd', 'desc')
        .select('p.*', 'w.smart_score');
      return rows.map(toPosition);
    },

    /** The mark price over the last `hours`, the last sample of each `bucketS` bucket, oldest first. */
    async priceSeries(exchange: string, market: string, since: Date, bucketS: number): Promise<{ at: Date; price: number }[]> {
      const { rows } = await db.raw(
        // The bucket is computed once: two placeholders would be two expressions to DISTINCT ON and ORDER BY.
        `SELECT DISTINCT ON (bucket) at, price FROM (
           SELECT date_bin(?::int * interval '1 second', at, 'epoch'::timestamptz) AS bucket, at, price
           FROM perps_mark_prices WHERE exchange = ? AND market = ? AND at >= ?) x
         ORDER BY bucket, at DESC`,
        [bucketS, exchange, market, since],
      );
      return (rows as { at: Date; price: number }[]).sort((a, b) => a.at.getTime() - b.at.getTime());
    },

    async knownMarket(exchange: string, market: string): Promise<boolean> {
      return !!(await db('perps_markets').where({ exchange, market }).first('market'));
    },

    async entryCounts(): Promise<{ entries: number; smart: number; first: Date | null }> {
      const r = await db('perps_entries').first(
        db.raw('count(*)::int AS entries'),
        db.raw('count(*) FILTER (WHERE smart)::int AS smart'),
        db.raw('min(detected_at) AS first'),
      );
      return { entries: r.entries, smart: r.smart, first: r.first };
    },
  };
}
export type PerpsReadModel = ReturnType<typeof createPerpsReadModel>;

function toEntry(r: Record<string, any>): EntryView {
  return {
    id: Number(r.id),
    exchange: r.exchange,
    wallet: r.wallet,
    market: r.market,
    side: r.side,
    kind: r.kind,
    size: r.size,
    entryPx: r.entry_px,
    priceAtDetection: r.price_at_detection,
    notionalUsd: r.notional_usd,
    leverage: r.leverage,
    walletRoi30d: r.wallet_roi_30d,
    smartScore: r.smart_score,
    smart: r.smart,
    whale: r.whale,
    ruleVersion: r.rule_version,
    entryRuleVersion: r.entry_rule_version,
    detectedAt: r.detected_at,
  };
}

function toPosition(r: Record<string, any>): PositionView {
  return {
    exchange: r.exchange,
    wallet: r.wallet,
    market: r.market,
    side: r.side,
    size: r.size,
    entryPx: r.entry_px,
    positionValueUsd: r.position_value_usd,
    unrealizedPnlUsd: r.unrealized_pnl_usd,
    openedAt: r.opened_at,
    smartScore: r.smart_score,
  };
}
