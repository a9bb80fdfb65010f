import type { DriftTrade } from '../../domain/perps/drift-trade';
import type { DriftTraderStats } from '../../domain/perps/drift-trader-stats';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type MarketTrade = DriftTrade & { market: string };
/** Dirty traders as read, with the version of their mark. */
export type DirtyTraders = Map<string, number>;

/**
 * exchange_a traders' lifetime stats, recomputed from every imported row of the traders a file touched (marked
 * dirty by the file's import, in its transaction). A trader marked again while being recomputed stays marked.
 */
export function createExchangeATraderStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async takeDirty(limit: number): Promise<DirtyTraders> {
      const rows = await db('exchange_a_dirty_traders').orderBy('trader').limit(limit).select('trader', 'version');
      return new Map(rows.map((r: { trader: string; version: number }) => [r.trader, Number(r.version)]));
    },

    async remainingDirty(): Promise<number> {
      const r = (await db('exchange_a_dirty_traders').count('* as n').first()) as { n: number } | undefined;
      return Number(r?.n ?? 0);
    },

    /** Every row where one of `traders` is taker or maker, in (at, fill_record_id) order, as the stats fold needs. */
    async tradesOf(traders: readonly string[]): Promise<MarketTrade[]> {
      if (!traders.length) return [];
      const rows = await db.raw(
        `SELECT * FROM exchange_a_trades WHERE taker = ANY(?::text[]) UNION SELECT * FROM exchange_a_trades WHERE maker = ANY(?::text[]) ORDER BY at, fill_record_id`,
        [[...traders], [...traders]],
      );
      return (rows.rows as Record<string, any>[]).map((r) => ({
        at: r.at.getTime(),
        txSig: r.tx_sig,
        slot: Number(r.slot),
        fillRecordId: Number(r.fill_record_id),
        marketIndex: r.market_index,
        marketType: r.market_type,
        action: r.action,
        actionExplanation: '',
        baseAmount: r.base_amount,
        quoteAmountUsd: r.quote_amount_usd,
        oraclePrice: r.oracle_price,
        taker: r.taker,
        takerDirection: r.taker_direction,
        maker: r.maker,
        makerDirection: r.maker_direction,
        takerFeeUsd: r.taker_fee_usd,
        makerFeeUsd: r.maker_fee_usd,
        market: r.market,
      }));
    },

    /** Saves the stats of `traders` (a trader with no rows left loses its row) and clears their marks. */
    async save(taken: DirtyTraders, stats: ReadonlyMap<string, DriftTraderStats>, at: Date): Promise<void> {
      const traders = [...taken.keys()];
      await db.transaction(async (trx) => {
        const present = traders.filter((t) => stats.has(t));
        const absent = traders.filter((t) => !stats.has(t));
        if (present.length)
          await trx('exchange_a_traders')
            .insert(
              present.map((t) => {
                const s = stats.get(t)!;
                return {
                  trader: t,
                  trades: s.trades,
                  volume_usd: s.volumeUsd,
                  fees_usd: s.feesUsd,
                  realized_pnl_usd: s.realizedPnlUsd,
                  round_trips: s.roundTrips,
                  wins: s.wins,
                  first_trade_at: new Date(s.firstTradeAt),
                  last_trade_at: new Date(s.lastTradeAt),
                  by_market: JSON.stringify(s.byMarket),
                  updated_at: at,
                };
              }),
            )
            .onConflict('trader')
            .merge();
        if (absent.length) await trx('exchange_a_traders').whereIn('trader', absent).delete();
        await trx.raw(
          `DELETE FROM exchange_a_dirty_traders d USING jsonb_to_recordset(?::jsonb) AS x(trader text, version bigint) WHERE d.trader = x.trader AND d.version = x.version`,
          [JSON.stringify([...taken].map(([trader, version]) => ({ trader, version })))],
        );
      });
    },
  };
}
export type ExchangeATraderStore = ReturnType<typeof createExchangeATraderStore>;
