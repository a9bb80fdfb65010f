import { HyperliquidStream } from '../../clients/hyperliquid/hyperliquid-stream';
import { createPerpsMarketStore } from '../../db/perps/perps-market-store';
import { createPerpsPollerStore } from '../../db/perps/perps-poller-store';
import { createPerpsWalletStore } from '../../db/perps/perps-wallet-store';
import { perpsExchangeName } from '../../domain/perps/exchange-name';
import type { Config } from '../../platform/config';
import type { Db } from '../../db/db-handle';
import type { Logger } from '../../platform/logger';
import { PerpsStreamConsumer } from './perps-stream-consumer';

export type PerpsStreamTimings = { flushMs: number; watchedRefreshMs: number; marketsCheckMs: number; progressMs: number };
const DEFAULT_TIMINGS: PerpsStreamTimings = { flushMs: 1000, watchedRefreshMs: 30_000, marketsCheckMs: 5 * 60_000, progressMs: 30_000 };

/**
 * The trades stream in the ingest daemon: Hyperliquid's `trades` channel of the top markets by volume (as the
 * markets poll last listed them) into the discovery and pokes of PerpsStreamConsumer. Why here and not in a
 * worker activity: it is a feed like the launchpad's, one per deployment, restarted by its supervisor, and it
 * writes facts to Postgres in batches; an activity would hold a worker slot for good and need its own lock to
 * stay single. The protocol has no replay, so a gap costs discovery only: snapshots are the source of entries.
 */
export function startPerpsStream(o: { cfg: Config; db: Db; log: Logger; now?: () => Date; timings?: Partial<PerpsStreamTimings> }) {
  const t = { ...DEFAULT_TIMINGS, ...o.timings };
  const now = o.now ?? (() => new Date());
  const exchange = perpsExchangeName(o.cfg.perps.exchange);
  const markets = createPerpsMarketStore(o.db);
  const pollers = createPerpsPollerStore(o.db);
  const consumer = new PerpsStreamConsumer({
    exchange,
    minNotionalUsd: o.cfg.perps.discoveryMinNotionalUsd,
    maxWatched: o.cfg.perps.maxWatchedWallets,
    store: createPerpsWalletStore(o.db),
    now,
  });
  let stream: HyperliquidStream | null = null;
  let coins: string[] = [];
  let gaps = 0;
  let stopped = false;

  const follow = async () => {
    const top = (await markets.topByVolume(exchange, o.cfg.perps.streamMarkets)).sort();
    if (!top.length || top.join() === coins.join()) return;
    coins = top;
    const old = stream;
    stream = new HyperliquidStream(
      { url: o.cfg.perps.wsUrl, logger: o.log, coins, mids: false },
      {
        trades: (trades) => consumer.onTrades(trades),
        gap: (_at, reason) => void (gaps++, o.log.warn({ reason }, 'perps stream: gap (trades missed until reconnect)')),
      },
    );
    stream.start();
    if (old) await old.stop();
    o.log.info({ coins }, 'perps stream: following markets');
  };
  const guard = (what: string, fn: () => Promise<unknown>) => () => {
    if (!stopped) void fn().catch((e) => o.log.warn({ err: e }, `perps stream: ${what} failed`));
  };

  const timers = [
    setInterval(
      guard('flush', () => consumer.flush()),
      t.flushMs,
    ),
    setInterval(
      guard('watched-set refresh', () => consumer.refreshWatched()),
      t.watchedRefreshMs,
    ),
    setInterval(
      guard('progress', async () => {
        const progress = { ...consumer.counters, watched: consumer.watchedCount(), coins: coins.length, gaps, stream: stream?.stats() ?? null };
        o.log.info(progress, 'perps stream progress');
        await pollers.ok('stream', exchange, now(), progress);
      }),
      t.progressMs,
    ),
  ];
  // Until the first markets poll has listed markets there is nothing to follow (checked every 10 s); afterwards the
  // top markets are re-checked every `marketsCheckMs`, so a market hovering at the cut does not restart the stream often.
  let check: NodeJS.Timeout | null = null;
  const scheduleCheck = () => {
    if (stopped) return;
    check = setTimeout(
      () =>
        void follow()
          .catch((e) => o.log.warn({ err: e }, 'perps stream: markets check failed'))
          .finally(scheduleCheck),
      coins.length ? t.marketsCheckMs : Math.min(t.marketsCheckMs, 10_000),
    );
  };
  guard('start', async () => {
    await consumer.refreshWatched();
    await follow();
  })();
  scheduleCheck();

  return {
    consumer,
    coins: () => coins,
    stats: () => ({ ...consumer.counters, gaps, stream: stream?.stats() ?? null }),
    async stop(): Promise<void> {
      stopped = true;
      for (const x of timers) clearInterval(x);
      if (check) clearTimeout(check);
      await stream?.stop();
      await consumer.flush().catch(() => undefined);
    },
  };
}
export type PerpsStreamRunner = ReturnType<typeof startPerpsStream>;
