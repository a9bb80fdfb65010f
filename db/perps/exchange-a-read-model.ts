import { driftMarketRollups, type DriftFileSummary, type DriftMarketRollup } from '../../domain/perps/drift-market-rollup';
import type { DriftMarketStats } from '../../domain/perps/drift-trader-stats';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

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
export function createExchangeAReadModel(handle: Db) {
  const db = knexOf(handle);
  /** The imported files' summaries (one row a file and day, at most a few thousand), folded by the domain's rollup. */
  async function rollups(market?: string): Promise<DriftMarketRollup[]> {
    const rows = await db('exchange_a_files')
      .where({ status: 'imported', ...(market === undefined ? {} : { market }) })
      .select(
        'file_key',
        'market',
        db.raw(`to_char(date, 'YYYY-MM-DD') AS date`),
        'rows',
        'volume_usd',
        'traders',
        'first_trade_at',
        'last_trade_at',
        'ingested_at',
        'sha256',
      );
    return driftMarketRollups(
      rows.map((r: Record<string, any>): DriftFileSummary => ({
        fileKey: r.file_key,
        market: r.market,
        date: r.date,
        rows: r.rows,
        volumeUsd: r.volume_usd,
        traders: r.traders,
        firstTradeAt: r.first_trade_at ? r.first_trade_at.getTime() : null,
        lastTradeAt: r.last_trade_at ? r.last_trade_at.getTime() : null,
        ingestedAt: r.ingested_at.getTime(),
        sha256: r.sha256 ?? '',
      })),
      10,
    );
  }
  const toRollup = ({ market, files, tradeRows, volumeUsd, firstDate, lastDate }: DriftMarketRollup): ExchangeAMarketRollupRow => ({
    market,
    files,
    tradeRows,
    volumeUsd,
    firstDate,
    lastDate,
  });
  return {
    async markets(): Promise<ExchangeAMarketRollupRow[]> {
      return (await rollups()).map(toRollup);
    },

    async market(
      market: string,
    ): Promise<(ExchangeAMarketRollupRow & { traders: number; recentFiles: { fileKey: string; date: string; rows: number; ingestedAt: Date }[] }) | undefined> {
      const [r] = await rollups(market);
      if (!r) return undefined;
      const t = (await db('exchange_a_market_traders').where({ market }).count('* as n').first()) as { n: number } | undefined;
      return {
        ...toRollup(r),
        traders: Number(t?.n ?? 0),
        recentFiles: r.recentFiles.map((f) => ({ ...f, ingestedAt: new Date(f.ingestedAt) })),
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
