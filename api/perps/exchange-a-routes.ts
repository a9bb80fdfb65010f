import { Router } from 'express';
import type { ExchangeAMarketRollupRow, ExchangeAReadModel } from '../../db/perps/exchange-a-read-model';
import { DRIFT_DATA_ENDS } from '../../domain/perps/drift-trade';
import { notFound } from '../http/http-error';

/** Where exchange_a's data comes from: Drift's public v2 historical bucket, which stopped publishing on 2025-01-08. */
const SOURCE = 'drift-historical-data-v2';
const DATA_ENDS_AT = `${DRIFT_DATA_ENDS}T23:59:59Z`;

const rollupJson = (m: ExchangeAMarketRollupRow) => ({
  market: m.market,
  files: m.files,
  trade_rows: m.tradeRows,
  volume_usd: m.volumeUsd,
  first_date: m.firstDate,
  last_date: m.lastDate,
});

/** exchange_a: traders and per-market rollups of the imported Drift day files. */
export function exchangeARoutes(d: { exchangeA: ExchangeAReadModel }): Router {
  const r = Router();
  r.get('/api/perps/exchange_a/markets', async (_req, res) => {
    const markets = await d.exchangeA.markets();
    res.set('Cache-Control', 'public, max-age=60').json({ count: markets.length, markets: markets.map(rollupJson) });
  });

  r.get('/api/perps/exchange_a/market/:market', async (req, res) => {
    const m = await d.exchangeA.market(String(req.params.market));
    if (!m) throw notFound(`no imported exchange_a files for market ${req.params.market}`);
    res.set('Cache-Control', 'public, max-age=60').json({
      ...rollupJson(m),
      traders: m.traders,
      recent_files: m.recentFiles.map((f) => ({ file_key: f.fileKey, date: f.date, rows: f.rows, ingested_at: f.ingestedAt.toISOString() })),
    });
  });

  r.get('/api/perps/exchange_a/wallet/:address', async (req, res) => {
    const t = await d.exchangeA.trader(String(req.params.address));
    if (!t) throw notFound(`account ${req.params.address} has no trades in the imported exchange_a files`);
    res.set('Cache-Control', 'public, max-age=60').json({
      address: t.trader,
      source: SOURCE,
      data_ends_at: DATA_ENDS_AT,
      trades: t.trades,
      volume_usd: t.volumeUsd,
      realized_pnl_usd: t.realizedPnlUsd,
      fees_usd: t.feesUsd,
      win_rate: t.roundTrips ? t.wins / t.roundTrips : null,
      markets_traded: t.byMarket.length,
      first_trade_at: t.firstTradeAt.toISOString(),
      last_trade_at: t.lastTradeAt.toISOString(),
      by_market: t.byMarket.map((b) => ({ market: b.market, trades: b.trades, volume_usd: b.volumeUsd })),
    });
  });
  return r;
}
