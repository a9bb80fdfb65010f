import type { HlTrade } from '../../clients/hyperliquid/hyperliquid-mapping';
import type { PerpsWalletStore } from '../../db/perps/perps-wallet-store';
import { DISCOVERY_RULE_VERSION, discoveredTaker } from '../../domain/perps/discovery-rule';

export type PerpsStreamCounters = {
  trades: number;
  largeTrades: number;
  discovered: number;
  pokes: number;
  flushes: number;
  flushErrors: number;
  droppedCandidates: number;
  lastTradeAt: number | null;
};

/** Candidates waiting for the next flush; beyond this a burst of large trades is dropped (and counted), never buffered. */
const MAX_PENDING = 20_000;

/**
 * What the ingest daemon does with Hyperliquid's trades stream. Trades never become one signal or one row each:
 * per trade it only looks two addresses up in an in-memory set. The taker of a large trade (discovery-v1) is a
 * candidate for the watched set; a watched wallet that trades is "poked", so the next snapshot sweep looks at it
 * first and its entry is detected within a sweep rather than at its cold cadence. Both are written in one
 * statement each per flush (every second).
 */
export class PerpsStreamConsumer {
  private watched = new Set<string>();
  private candidates = new Set<string>();
  private poked = new Set<string>();
  readonly counters: PerpsStreamCounters = {
    trades: 0,
    largeTrades: 0,
    discovered: 0,
    pokes: 0,
    flushes: 0,
    flushErrors: 0,
    droppedCandidates: 0,
    lastTradeAt: null,
  };

  constructor(
    private readonly o: {
      exchange: string;
      minNotionalUsd: number;
      maxWatched: number;
      store: Pick<PerpsWalletStore, 'discover' | 'poke' | 'watchedWallets'>;
      now: () => Date;
    },
  ) {}

  onTrades(trades: readonly HlTrade[]): void {
    for (const t of trades) {
      this.counters.trades++;
      this.counters.lastTradeAt = t.time;
      const taker = discoveredTaker(t, this.o.minNotionalUsd);
      if (taker) {
        this.counters.largeTrades++;
        if (!this.watched.has(taker)) {
          if (this.candidates.size < MAX_PENDING) this.candidates.add(taker);
          else this.counters.droppedCandidates++;
        }
      }
      if (this.watched.has(t.buyer)) this.poked.add(t.buyer);
      if (this.watched.has(t.seller)) this.poked.add(t.seller);
    }
  }

  /** Writes what accumulated since the last flush; what a failed write held is kept for the next one. */
  async flush(): Promise<void> {
    const candidates = [...this.candidates];
    const poked = [...this.poked];
    this.candidates.clear();
    this.poked.clear();
    if (!candidates.length && !poked.length) return;
    const at = this.o.now();
    try {
      if (candidates.length) {
        this.counters.discovered += await this.o.store.discover(this.o.exchange, candidates, `trades-stream:${DISCOVERY_RULE_VERSION}`, at, this.o.maxWatched);
        for (const w of candidates) this.watched.add(w);
      }
      if (poked.length) this.counters.pokes += await this.o.store.poke(this.o.exchange, poked, at);
      this.counters.flushes++;
    } catch (e) {
      this.counters.flushErrors++;
      for (const w of candidates) if (this.candidates.size < MAX_PENDING) this.candidates.add(w);
      for (const w of poked) this.poked.add(w);
      throw e;
    }
  }

  /** Re-reads the watched set (evictions, wallets added by others). */
  async refreshWatched(): Promise<number> {
    this.watched = new Set(await this.o.store.watchedWallets(this.o.exchange));
    return this.watched.size;
  }

  watchedCount(): number {
    return this.watched.size;
  }
}
