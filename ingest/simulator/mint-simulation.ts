import type { CreateEvent, EventBase, LaunchEvent, TradeEvent } from '../../domain/launch/launch-events';
import { AddressBook, mintAddress, publicKey, signature } from './address-book';
import { buy, initialReserves, isComplete, sell, type CurveReserves, type Swap } from './curve-math';
import { HolderBook } from './holder-book';
import { simulatedMetadata } from './simulated-metadata';
import { clamp, type CreatorKind, type LaunchProfile } from './launch-profile';
import type { SeededRandom } from './seeded-random';
import { nextArrivalS } from './trade-intensity';

// Bound once: global lookups are slow under jest's vm sandbox (see seeded-random.ts).
const { ceil, exp, floor, max, min, pow, round, tanh } = Math;
const NativeDate = Date;

/** What the market needs from its mints: shared address book, populations and the clock → slot mapping. */
export type MintContext = {
  book: AddressBook;
  slotAt: (atMs: number) => number;
  retailWallets: number;
  smartWallets: number;
  sniperBots: number;
  deadAfterMs: number;
  maxAgeMs: number;
  /** How long the migration transaction trails the completing trade. */
  migrationDelayMs: [number, number];
};

type Planned = { atMs: number; wallet: string; action: 'buy'; sol: number } | { atMs: number; wallet: string; action: 'sell-all' };

export type MintOutcome = 'active' | 'graduated' | 'dead' | 'aged';

const LAMPORTS = 1e9;
const MAYHEM_AGENT_MAX_GAP_MS = 10 * 60_000;

/**
 * One launch from creation to graduation or death: its curve, holders, planned bot trades (bundle, snipers,
 * the rug) and organic flow. The market drops the object once `outcome` leaves 'active', so memory follows
 * the number of live mints, never the history.
 */
export class MintSimulation {
  readonly mint: string;
  readonly creator: string;
  outcome: MintOutcome = 'active';
  /** Set when the curve completed: the migration the market schedules. */
  migration: { atMs: number; signature: string; pool: string } | null = null;
  private reserves: CurveReserves = initialReserves();
  private readonly holders = new HolderBook();
  private readonly plan: Planned[] = [];
  private nextOrganicS: number | null;
  private nextAgentMs: number | null;
  private lastTradeMs: number;
  /** Signature of the trade that sold the curve out, until its CompleteEvent is emitted. */
  private completedBy: string | null = null;

  constructor(
    private readonly ctx: MintContext,
    private readonly rng: SeededRandom,
    readonly createdAtMs: number,
    readonly profile: LaunchProfile,
    readonly creatorKind: CreatorKind,
    creatorIndex: number,
    readonly mayhem: boolean,
  ) {
    this.mint = mintAddress(rng);
    this.creator = ctx.book.wallet(creatorKind === 'runner' ? 'creator-runner' : creatorKind === 'rugger' ? 'creator-rugger' : 'creator', creatorIndex);
    this.lastTradeMs = createdAtMs;
    this.nextOrganicS = nextArrivalS(profile.phases, 0, rng.exponential(1));
    this.nextAgentMs = mayhem ? createdAtMs + 1000 : null;
  }

  /** The creation transaction (create + dev buy share a signature) and the bundle buys in the same slot. */
  launch(): LaunchEvent[] {
    const at = this.createdAtMs;
    const sig = signature(this.rng);
    const name = `Sim ${this.mint.slice(0, 4)}`;
    const symbol = this.mint.slice(0, 4).toUpperCase();
    const create: CreateEvent = {
      ...this.base(sig, at),
      kind: 'create',
      name,
      symbol,
      uri: simulatedMetadata({ mint: this.mint, name, symbol }).uri,
      bondingCurve: publicKey(this.rng),
      creator: this.creator,
      mayhem: this.mayhem,
      ...this.reserves,
    };
    const events: LaunchEvent[] = [create];
    const dev = this.buy(this.creator, this.profile.devBuySol, sig, at);
    if (dev) events.push(dev);
    const bundle: string[] = [];
    for (const sol of this.profile.bundleBuysSol) {
      // Bundle wallets are fresh, funded for this launch only.
      const wallet = publicKey(this.rng);
      bundle.push(wallet);
      const t = this.buy(wallet, sol, signature(this.rng), at);
      if (t) events.push(t);
    }
    for (const s of this.profile.snipers) {
      const wallet = this.ctx.book.wallet('sniper', this.rng.int(0, this.ctx.sniperBots));
      const buyAt = at + round(s.delayS * 1000);
      this.schedule({ atMs: buyAt, wallet, action: 'buy', sol: s.sol });
      this.schedule({ atMs: buyAt + round(s.holdS * 1000), wallet, action: 'sell-all' });
    }
    if (this.profile.rugAtS !== null) {
      const rugAt = at + round(this.profile.rugAtS * 1000);
      this.schedule({ atMs: rugAt, wallet: this.creator, action: 'sell-all' });
      for (const w of bundle) this.schedule({ atMs: rugAt + this.rng.int(0, 1500), wallet: w, action: 'sell-all' });
    }
    return this.afterStep(events, at);
  }

  /** When the next action of this mint is due, or null once it left the market. */
  nextAtMs(): number | null {
    if (this.outcome !== 'active') return null;
    let next = this.plan[0]?.atMs ?? Infinity;
    if (this.nextAgentMs !== null) next = min(next, this.nextAgentMs);
    if (this.nextOrganicS !== null) next = min(next, this.createdAtMs + ceil(this.nextOrganicS * 1000));
    return next;
  }

  /** Runs the action due at `atMs`. */
  step(atMs: number): LaunchEvent[] {
    const events: LaunchEvent[] = [];
    const planned = this.plan[0];
    if (planned && planned.atMs <= atMs) {
      this.plan.shift();
      const trade = planned.action === 'buy' ? this.buy(planned.wallet, planned.sol, signature(this.rng), atMs) : this.sellAll(planned.wallet, atMs);
      if (trade) events.push(trade);
    } else if (this.nextAgentMs !== null && this.nextAgentMs <= atMs) {
      const trade = this.agentTrade(atMs);
      if (trade) events.push(trade);
      const ageS = (atMs - this.createdAtMs) / 1000;
      const rate = 0.05 * exp(-ageS / 1200) + 1 / 900;
      this.nextAgentMs = atMs + max(1, min(MAYHEM_AGENT_MAX_GAP_MS, round(this.rng.exponential(rate) * 1000)));
    } else {
      const trade = this.organicTrade(atMs);
      if (trade) events.push(trade);
      const nowS = (atMs - this.createdAtMs) / 1000;
      this.nextOrganicS = nextArrivalS(this.profile.phases, max(nowS, this.nextOrganicS ?? nowS), this.rng.exponential(1));
    }
    return this.afterStep(events, atMs);
  }

  private afterStep(events: LaunchEvent[], atMs: number): LaunchEvent[] {
    if (this.outcome === 'graduated') {
      if (this.completedBy !== null) events.push({ ...this.base(this.completedBy, atMs), kind: 'complete' });
      this.completedBy = null;
      return events;
    }
    const next = this.nextAtMs();
    if (next === null || next === Infinity || next - this.lastTradeMs > this.ctx.deadAfterMs) this.outcome = 'dead';
    else if (next - this.createdAtMs > this.ctx.maxAgeMs) this.outcome = 'aged';
    return events;
  }

  private organicTrade(atMs: number): TradeEvent | null {
    const gap = this.profile.targetSol((atMs - this.createdAtMs) / 1000) - this.reserves.vSolLamports / LAMPORTS;
    const pBuy = clamp(0.5 + 0.4 * tanh(gap / 6), 0.08, 0.92);
    if (this.holders.size === 0 || this.rng.chance(pBuy)) {
      const sol = clamp(this.rng.lognormal(this.profile.sizeScaleSol * (1 + max(0, gap) / 12), 1), 0.005, 25);
      return this.buy(this.organicBuyer(atMs), sol, signature(this.rng), atMs);
    }
    const wallet = this.holders.pick(this.rng);
    if (wallet === null) return null;
    const fraction = this.rng.chance(0.4) ? 1 : this.rng.uniform(0.15, 0.85);
    return this.sell(wallet, max(1, floor(this.holders.balance(wallet) * fraction)), atMs);
  }

  private organicBuyer(atMs: number): string {
    if (this.holders.size > 0 && this.rng.chance(0.2)) return this.holders.pick(this.rng)!;
    const early = atMs - this.createdAtMs < 120_000;
    if (this.rng.chance(early ? this.profile.smartBuyerShareEarly : 0.02)) return this.ctx.book.wallet('smart', this.rng.int(0, this.ctx.smartWallets));
    // Skewed towards low indexes: a minority of retail wallets does most of the trading.
    return this.ctx.book.wallet('retail', floor(this.ctx.retailWallets * pow(this.rng.float(), 2.5)));
  }

  private agentTrade(atMs: number): TradeEvent | null {
    const agent = this.ctx.book.wallet('mayhem-agent', 0);
    const held = this.holders.balance(agent);
    if (held > 0 && this.rng.chance(0.5)) return this.sell(agent, max(1, floor(held * this.rng.uniform(0.2, 1))), atMs);
    return this.buy(agent, clamp(this.rng.lognormal(0.3, 0.7), 0.01, 5), signature(this.rng), atMs);
  }

  private sellAll(wallet: string, atMs: number): TradeEvent | null {
    const held = this.holders.balance(wallet);
    return held > 0 ? this.sell(wallet, held, atMs) : null;
  }

  private buy(wallet: string, sol: number, sig: string, atMs: number): TradeEvent | null {
    if (sol <= 0) return null;
    const swap = buy(this.reserves, round(sol * LAMPORTS));
    if (!swap) return null;
    this.holders.add(wallet, swap.tokensRaw);
    return this.trade(wallet, true, swap, sig, atMs);
  }

  private sell(wallet: string, tokensRaw: number, atMs: number): TradeEvent | null {
    const swap = sell(this.reserves, tokensRaw);
    if (!swap) return null;
    this.holders.remove(wallet, swap.tokensRaw);
    return this.trade(wallet, false, swap, signature(this.rng), atMs);
  }

  private trade(trader: string, isBuy: boolean, swap: Swap, sig: string, atMs: number): TradeEvent {
    this.reserves = { vSolLamports: swap.vSolLamports, vTokensRaw: swap.vTokensRaw };
    this.lastTradeMs = atMs;
    if (isComplete(this.reserves)) this.complete(sig, atMs);
    // A plain literal: spreading into event objects was the simulator's hottest line (slow object clones).
    return {
      signature: sig,
      ordinal: 0,
      slot: this.ctx.slotAt(atMs),
      at: new NativeDate(atMs),
      source: 'simulator',
      mint: this.mint,
      kind: 'trade',
      trader,
      isBuy,
      solLamports: swap.solLamports,
      tokensRaw: swap.tokensRaw,
      vSolLamports: swap.vSolLamports,
      vTokensRaw: swap.vTokensRaw,
    };
  }

  /** The completing trade's transaction also carries the CompleteEvent; the migration is a later transaction. */
  private complete(sig: string, atMs: number): void {
    this.outcome = 'graduated';
    this.completedBy = sig;
    const [lo, hi] = this.ctx.migrationDelayMs;
    this.migration = { atMs: atMs + this.rng.int(lo, hi), signature: signature(this.rng), pool: publicKey(this.rng) };
  }

  private schedule(p: Planned): void {
    let i = this.plan.length;
    while (i > 0 && this.plan[i - 1]!.atMs > p.atMs) i--;
    this.plan.splice(i, 0, p);
  }

  private base(sig: string, atMs: number): EventBase {
    return { signature: sig, ordinal: 0, slot: this.ctx.slotAt(atMs), at: new NativeDate(atMs), source: 'simulator', mint: this.mint };
  }
}
