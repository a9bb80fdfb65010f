import type { Knex } from 'knex';
import type { DriftMarketStats } from '../../domain/perps/drift-trader-stats';

export type ExchangeAMarketRollupRow = {
  market: string;
  files: number;
  tradeRows: number;
  volumeUsd: number;
  firstDate: string | null;
  lastDate: string | null;
};
export type ExchangeATraderRow = {
  trader: string;
  trades: number;
  volumeUsd: number;
  feesUsd: number;
  realizedPnlUsd: number;
  roundTrips: number;
  wins: number;
  firstTradeAt: Date;
  lastTradeAt: Date;
  byMarket: DriftMarketStats[];
};

/** exchange_a (Drift historical files) as the API reads it: per-market rollups of imported files, traders. */
export function createExchangeAReadModel(db: Knex) {
  const rollups = () =>
    db('exchange_a_files')
      .where({ status: 'imported' })
      .groupBy('market')
      .orderBy('market')
      .select(
        'market',
        db.raw('count(*)::int AS files'),
        db.raw('coalesce(sum(rows), 0)::bigint AS trade_rows'),
        db.raw('coalesce(sum(volume_usd), 0)::float8 AS volume_usd'),
        db.raw(`to_char(min(date), 'YYYY-MM-DD') AS first_date`),
        db.raw(`to_char(max(date), 'YYYY-MM-DD') AS last_date`),
      );
  const toRollup = (r: Record<string, any>): ExchangeAMarketRollupRow => ({
    market: r.market,
    files: r.files,
    tradeRows: Number(r.trade_rows),
    volumeUsd: r.volume_usd,
    firstDate: r.first_date,
    lastDate: r.last_date,
  });
  return {
    async markets(): Promise<ExchangeAMarketRollupRow[]> {
      return (await rollups()).map(toRollup);
    },

    async market(
      market: string,
    ): Promise<(ExchangeAMarketRollupRow & { traders: number; recentFiles: { fileKey: string; date: string; rows: number; ingestedAt: Date }[] }) | undefined> {
      const r = await rollups().where({ market }).first();
      if (!r) return undefined;
      const t = (await db('exchange_a_market_traders').where({ market }).count('* as n').first()) as { n: number } | undefined;
      const recent = await db('exchange_a_files')
        .where({ market, status: 'imported' })
        .orderBy('ingested_at', 'desc')
        .orderBy('date', 'desc')
        .limit(10)
        .select('file_key', db.raw(`to_char(date, 'YYYY-MM-DD') AS date`), 'rows', 'ingested_at');
      return {
        ...toRollup(r),
        traders: Number(t?.n ?? 0),
        recentFiles: recent.map((f: Record<string, any>) => ({ fileKey: f.file_key, date: f.date, rows: f.rows, ingestedAt: f.ingested_at })),
      };
    },

    async trader(address: string): Promise<ExchangeATraderRow | undefined> {
      const r = await db('exchange_a_traders').where({ trader: address }).first();
      return (
        r && {
          trader: r.trader,
          trades: r.trades,
          volumeUsd: r.volume_usd,
          feesUsd: r.fees_usd,
          realizedPnlUsd: r.realized_pnl_usd,
          roundTrips: r.round_trips,
          wins: r.wins,
          firstTradeAt: r.first_trade_at,
          lastTradeAt: r.last_trade_at,
          byMarket: r.by_market,
        }
      );
    },

    async status(): Promise<{ markets: number; lastIngestedAt: Date | null }> {
      const r = await db('exchange_a_files')
        .where({ status: 'imported' })
        .first(db.raw('count(DISTINCT market)::int AS markets'), db.raw('max(ingested_at) AS last'));
      return { markets: r?.markets ?? 0, lastIngestedAt: r?.last ?? null };
    },
  };
}
export type ExchangeAReadModel = ReturnType<typeof createExchangeAReadModel>;
