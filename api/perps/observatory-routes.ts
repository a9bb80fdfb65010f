import { Router } from 'express';
import type { ExchangeAReadModel } from '../../db/perps/exchange-a-read-model';
import type { PerpsLedgerStore } from '../../db/perps/perps-ledger-store';
import type { PerpsMarketStore } from '../../db/perps/perps-market-store';
import type { PerpsPollerStore } from '../../db/perps/perps-poller-store';
import type { PerpsReadModel } from '../../db/perps/perps-read-model';
import type { PerpsWalletStore } from '../../db/perps/perps-wallet-store';
import { EXCHANGE_A } from '../../domain/perps/exchange-name';
import { fundingApr, nextHourlyFunding, pollerHealth, worseHealth } from '../../domain/perps/observatory-rules';
import { budgetedCadence, type SnapshotCadence } from '../../domain/perps/snapshot-policy';
import { iso } from '../http/iso';

export type ObservatoryDeps = {
  exchange: string;
  marketsIntervalS: number;
  snapshotSweepS: number;
  snapshotCadence: SnapshotCadence;
  snapshotCapacityPerS: number;
  marketStore: PerpsMarketStore;
  pollerStore: PerpsPollerStore;
  walletStore: PerpsWalletStore;
  readModel: PerpsReadModel;
  exchangeA: ExchangeAReadModel;
  ledgerStore: PerpsLedgerStore;
  now: () => Date;
};

const TOP = 10;

/** GET /api/perps/observatory: each exchange's status, top funding and volume on the live exchange, lifetime counters. */
export function observatoryRoutes(d: ObservatoryDeps): Router {
  const r = Router();
  r.get('/api/perps/observatory', async (_req, res) => {
    const now = d.now();
    const [pollers, markets, wallets, entries, a, commits] = await Promise.all([
      d.pollerStore.all(),
      d.marketStore.all(d.exchange),
      d.walletStore.counts(),
      d.readModel.entryCounts(),
      d.exchangeA.status(),
      d.ledgerStore.count(),
    ]);
    const poller = (name: string) => pollers.find((p) => p.name === name && p.exchange === d.exchange);
    const marketsOk = poller('markets')?.lastOkAt?.getTime() ?? null;
    const sweepsOk = poller('snapshots')?.lastOkAt?.getTime() ?? null;
    const live = worseHealth(pollerHealth(marketsOk, now.getTime(), d.marketsIntervalS), pollerHealth(sweepsOk, now.getTime(), d.snapshotSweepS));
    const nextFunding = new Date(nextHourlyFunding(now.getTime())).toISOString();
    const mix = { hot: wallets.watchedHot, cold: wallets.watched - wallets.watchedHot };
    const cadence = budgetedCadence(mix, d.snapshotCadence, d.snapshotCapacityPerS);
    res.set('Cache-Control', 'public, max-age=5').json({
      generated_at: now.toISOString(),
      exchanges: [
        { exchange: d.exchange, status: live, markets: markets.length, last_update_at: iso(poller('markets')?.lastOkAt) },
        { exchange: EXCHANGE_A, status: a.markets > 0 ? 'ok' : 'down', markets: a.markets, last_update_at: iso(a.lastIngestedAt) },
      ],
      top_funding: [...markets]
        .sort((x, y) => Math.abs(y.fundingRateHourly) - Math.abs(x.fundingRateHourly) || x.market.localeCompare(y.market))
        .slice(0, TOP)
        .map((m) => ({
          exchange: d.exchange,
          market: m.market,
          funding_rate_hourly: m.fundingRateHourly,
          funding_rate_apr: fundingApr(m.fundingRateHourly),
          next_funding_at: nextFunding,
        })),
      top_volume_24h: [...markets]
        .sort((x, y) => y.volume24hUsd - x.volume24hUsd || x.market.localeCompare(y.market))
        .slice(0, TOP)
        .map((m) => ({ exchange: d.exchange, market: m.market, volume_24h_usd: m.volume24hUsd, open_interest_usd: m.openInterestUsd })),
      snapshot_cadence: {
        watched_hot: mix.hot,
        watched_cold: mix.cold,
        capacity_per_s: Math.round(d.snapshotCapacityPerS * 1000) / 1000,
        configured: { hot_s: d.snapshotCadence.hotS, cold_s: d.snapshotCadence.coldS },
        effective: { hot_s: cadence.hotS, cold_s: cadence.coldS },
        fits: cadence.fits,
      },
      lifetime: {
        wallets_tracked: wallets.known,
        entries_logged: entries.entries,
        smart_entries: entries.smart,
        ledger_commits: commits,
        since: iso(wallets.since),
      },
    });
  });
  return r;
}
