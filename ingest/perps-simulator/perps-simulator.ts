import { SeededRandom } from '../simulator/seeded-random';
import { createMarket, SIM_MARKETS, stepMarket, addVolume, type MarketSpec, type MarketState } from './sim-markets';
import { createWallets, hexAddress, stepWallet, type SimWallet } from './sim-wallets';

/**
 * A seeded perpetual-futures exchange: markets with random-walk marks, funding, open interest and 24 h volume
 * (sim-markets.ts), a population of wallets opening, adding to and closing positions, some of them skilled,
 * a few whales, and a stream of small retail trades around them (sim-wallets.ts). It backs the embedded
 * default's local Hyperliquid (simulated-hyperliquid-server.ts), so the production client and the whole
 * observatory run against it with no exchange to reach.
 *
 * Time moves in fixed steps from `startAt`: before it, a warm-up of `warmupMs` in one-minute steps gives every
 * wallet a history of closed entries (so smart wallets exist from the first minute); after it, one-second steps.
 * The state at any time is a function of (seed, startAt, time) alone, however `advanceTo` calls are split.
 */
export type PerpsSimulatorOptions = {
  seed: number;
  startAt: number;
  wallets?: number;
  /** Retail trades per second across all markets (small, from a pool of addresses never worth watching). */
  retailTradesPerSecond?: number;
  warmupMs?: number;
  markets?: MarketSpec[];
};

export type SimTrade = { coin: string; side: 'A' | 'B'; px: number; sz: number; time: number; buyer: string; seller: string; hash: string; tid: number };

const LIVE_STEP_MS = 1_000;
const WARMUP_STEP_MS = 60_000;
/** Trades kept for the stream between drains; beyond this the oldest are dropped (a slow consumer never grows memory). */
const MAX_PENDING_TRADES = 100_000;

export class PerpsSimulator {
  readonly markets = new Map<string, MarketState>();
  readonly wallets: SimWallet[];
  private readonly byAddress = new Map<string, SimWallet>();
  private readonly rng: SeededRandom;
  private readonly retail: string[];
  private readonly makers: string[];
  private pending: SimTrade[] = [];
  private nextTid = 1;
  private droppedTrades = 0;
  private emitting = false;
  now: number;

  constructor(private readonly o: PerpsSimulatorOptions) {
    const setup = SeededRandom.derive(o.seed, 'perps-setup');
    this.rng = SeededRandom.derive(o.seed, 'perps-steps');
    const warmup = o.warmupMs ?? 3 * 24 * 3_600_000;
    this.now = o.startAt - warmup;
    for (const spec of o.markets ?? SIM_MARKETS) this.markets.set(spec.name, createMarket(spec, this.now, setup));
    this.wallets = createWallets(o.wallets ?? 2_000, setup);
    for (const w of this.wallets) this.byAddress.set(w.address, w);
    this.retail = Array.from({ length: 5_000 }, () => hexAddress(setup));
    this.makers = Array.from({ length: 20 }, () => hexAddress(setup));
    this.run(o.startAt, WARMUP_STEP_MS);
    this.emitting = true;
  }

  /** Moves the exchange forward to `t` in one-second steps (a `t` in the past does nothing). */
  advanceTo(t: number): void {
    this.run(t, LIVE_STEP_MS);
  }

  /** Trades since the last drain, oldest first. */
  drainTrades(): SimTrade[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  wallet(address: string): SimWallet | undefined {
    return this.byAddress.get(address.toLowerCase());
  }

  stats() {
    return {
      now: this.now,
      wallets: this.wallets.length,
      openPositions: this.wallets.reduce((n, w) => n + w.positions.size, 0),
      droppedTrades: this.droppedTrades,
    };
  }

  private run(until: number, stepMs: number): void {
    while (this.now + stepMs <= until) {
      this.now += stepMs;
      this.step(stepMs);
    }
  }

  private step(dtMs: number): void {
    const rng = this.rng;
    for (const m of this.markets.values()) stepMarket(m, this.now, dtMs, rng);
    const ctx = {
      rng,
      markets: this.markets,
      now: this.now,
      dtMs,
      counterparty: () => rng.pick(this.makers),
      ids: { next: () => this.nextTid++ },
      emit: (t: SimTrade) => this.emit(t),
    };
    for (const w of this.wallets) stepWallet(w, ctx);
    if (!this.emitting) return;
    const markets = [...this.markets.values()];
    for (let i = rng.poisson(((this.o.retailTradesPerSecond ?? 20) * dtMs) / 1000); i > 0; i--) {
      const m = rng.pick(markets);
      const notional = rng.lognormal(800, 1.2);
      const f = 10 ** m.spec.szDecimals;
      const sz = Math.max(1 / f, Math.round((notional / m.markPx) * f) / f);
      const buy = rng.chance(0.5);
      const [a, b] = [rng.pick(this.retail), rng.pick(this.makers)];
      const tid = this.nextTid++;
      this.emit({
        coin: m.spec.name,
        side: buy ? 'B' : 'A',
        px: m.markPx,
        sz,
        time: this.now,
        buyer: buy ? a : b,
        seller: buy ? b : a,
        hash: `0x${tid.toString(16).padStart(64, '0')}`,
        tid,
      });
    }
  }

  private emit(t: SimTrade): void {
    addVolume(this.markets.get(t.coin)!, t.time, t.px * t.sz);
    if (!this.emitting) return;
    this.pending.push(t);
    if (this.pending.length > MAX_PENDING_TRADES) {
      this.pending.shift();
      this.droppedTrades++;
    }
  }
}
