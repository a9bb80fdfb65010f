import type { CreateEvent, LaunchEvent, TradeEvent } from '../launch/launch-events';
import { peakMultFrom, priceAt, resolveOutcome, type MintOutcome } from '../launch/outcome-labels';
import { MintTape } from '../launch/mint-tape';
import { freshAmongFirstBuyers, type Freshness } from '../launch/wallet-freshness';
import { computeLaunchFeatures, type LaunchContext } from './launch-features';
import { computeFeatures, type MintFeatures } from './mint-features';
import { computeRugFeatures, type RugFeatures } from './rug-features';
import { RUNNER_GRID_AGES_S, runnerObservations, type RunnerObservation } from './runner-grid';
import { SCORE_AGES, type ScoreAge } from './score-age';
import { LabelTrades } from '../launch/label-trades';

/**
 * Folds a launchpad event stream (in time order, as a feed or replay delivers it) into what production
 * would have recorded per mint: the features at each scoring age, computed by the production feature code
 * from the trades up to that age, and the versioned outcome labels resolved at the horizon by the production
 * label code. A mint keeps only the trades those can depend on (label-trades.ts), only until it resolves,
 * and mayhem mints (never scored) keep none: memory follows the mints inside the horizon (plus one id per
 * mint seen, to spot late events).
 *
 * A mint is resolved when the stream's clock passes its horizon, as the lifecycle workflow does; mints
 * whose horizon lies beyond the end of the data stay unresolved and are counted, never guessed.
 */
export type Observation = {
  ageS: ScoreAge;
  /** Creation + age: when production would have scored it. */
  observedAt: Date;
  features: MintFeatures;
  /** The rug model's view at that moment, with wallet freshness as the stream had seen it (see FreshnessLookup). */
  rugFeatures: RugFeatures;
  /** Curve price at that moment (runner odds are measured from it, never from launch). */
  priceSol: number;
  /** Peak price within the horizon after the observation ÷ the price at it (outcome-labels' peakMultFrom). */
  peakMultFromCall: number;
};

export type ResolvedLaunch = {
  mint: string;
  createdAt: Date;
  resolvedAt: Date;
  outcome: MintOutcome;
  observations: Observation[];
  /** The from-now runner model's grid rows (runner-grid.ts), as the lifecycle writes them at resolution; set by the folder. */
  grid?: RunnerObservation[];
};

/**
 * How long after creation the folder keeps every trade: through the last grid age of the from-now runner model, so
 * its rows (features folded up to each grid age, the peak after it) are exact, not only those of the scoring ages.
 */
const KEEP_ALL_S = Math.max(...SCORE_AGES, ...RUNNER_GRID_AGES_S);

export type FoldCounts = {
  events: number;
  launches: number;
  mayhemSkipped: number;
  /** Trades of mints created before the data starts (their features cannot be computed). */
  orphanTrades: number;
  /** Events of a mint after its horizon (out-of-order data, or a market that outlives the horizon). */
  lateEvents: number;
  /** The same trade delivered twice (two feeds, a re-sent frame): kept once, as ingestion does. */
  duplicateTrades: number;
  graduationsSeen: number;
};

type Open = {
  create: CreateEvent;
  horizonMs: number;
  trades: LabelTrades;
  graduatedAt: Date | null;
  lastEventMs: number;
  /** The creator's record as of the creation. */
  creator: LaunchContext['creator'];
  /** Per scoring age, the smart wallets among the buyers so far, by the wallet records as they stood then. */
  smartAt: Map<ScoreAge, ReadonlySet<string>>;
};

/** What the stream knew about a wallet or creator from resolved launches only (as production's records). */
type Record3 = { total: number; graduated: number; rugged: number };

/**
 * Whether a buyer was fresh (had never traded on the launchpad) when a mint was created, as production's
 * wallet-freshness defines it. Omitted, no buyer counts as fresh.
 */
export type FreshnessLookup = (wallet: string, mintCreatedAtMs: number) => boolean;

/**
 * Whether a wallet with this record counts as smart. The wallets area defines it (`isSmartWallet`); the caller passes
 * it in, so the folder applies production's rule without scoring depending on the wallets area.
 */
export type SmartWalletTest = (record: Record3) => boolean;

export class LaunchHistoryFolder {
  readonly counts: FoldCounts = { events: 0, launches: 0, mayhemSkipped: 0, orphanTrades: 0, lateEvents: 0, duplicateTrades: 0, graduationsSeen: 0 };
  private readonly open = new Map<string, Open>();
  /** Mints in creation order; horizons are creation + a constant, so they resolve from the front. */
  private readonly queue: string[] = [];
  private queueHead = 0;
  private readonly done = new Set<string>();
  private readonly mayhem = new Set<string>();
  private clockMs = -Infinity;
  /** First trade time of every wallet the stream has shown: freshness is "first trade at or after the creation". */
  private readonly firstTradeMs = new Map<string, number>();
  private readonly isFresh: FreshnessLookup = (wallet, createdAtMs) => (this.firstTradeMs.get(wallet) ?? Infinity) >= createdAtMs;
  /**
   * Wallet and creator records from the launches resolved so far (point in time: a launch counts once its
   * horizon passed). A wallet's record counts the launches it bought by the last scoring age (the folder keeps
   * every trade only that far: label-trades.ts), so a wallet that first bought a mint after 60 s is not in that
   * mint's record here, where production's wallet index would count it.
   */
  private readonly walletRecords = new Map<string, Record3>();
  private readonly creatorRecords = new Map<string, Record3>();
  /** Per age, mints in creation order awaiting their point-in-time snapshot. */
  private readonly snapshotQueues = new Map<ScoreAge, { mints: string[]; head: number }>(SCORE_AGES.map((a) => [a, { mints: [], head: 0 }]));

  constructor(
    private readonly horizonS: number,
    private readonly isSmart: SmartWalletTest,
  ) {
    if (!(horizonS > Math.max(...SCORE_AGES))) throw new RangeError(`horizon must exceed the scoring ages, got ${horizonS} s`);
  }

  /** Takes one event; returns the launches whose horizon the clock has now passed. */
  push(e: LaunchEvent): ResolvedLaunch[] {
    this.counts.events++;
    this.clockMs = Math.max(this.clockMs, e.at.getTime());
    // Snapshots and resolutions strictly before this moment happen first, in time order, so a snapshot never sees
    // a launch resolved after it.
    const resolved = this.advance(this.clockMs);
    if (e.kind === 'trade' && !this.firstTradeMs.has(e.trader)) this.firstTradeMs.set(e.trader, e.at.getTime());
    if (e.kind === 'create') this.onCreate(e);
    else if (this.mayhem.has(e.mint)) {
      // Never scored, never kept.
    } else if (this.done.has(e.mint)) this.counts.lateEvents++;
    else {
      const m = this.open.get(e.mint);
      if (!m) {
        if (e.kind === 'trade') this.counts.orphanTrades++;
      } else if (e.at.getTime() > m.horizonMs) this.counts.lateEvents++;
      else {
        m.lastEventMs = Math.max(m.lastEventMs, e.at.getTime());
        if (e.kind === 'trade') {
          if (!m.trades.add(e)) this.counts.duplicateTrades++;
        } else if (m.graduatedAt === null) {
          // Complete marks graduation; a migrate without a complete seen (a dropped frame) implies it.
          m.graduatedAt = e.at;
          this.counts.graduationsSeen++;
        }
      }
    }
    return [...resolved, ...this.advance(this.clockMs)];
  }

  /** Mints still inside their horizon when the data ends: their labels are not known. */
  get unresolved(): number {
    return this.open.size;
  }

  /**
   * Resolves now, at their horizon, the open mints that a source guarantees are over: no event since
   * `quietBeforeMs` (the simulator forgets a mint after a quiet spell and never trades it again, so its label
   * is already final). A real feed gives no such guarantee; only a generator that knows it may call this.
   */
  resolveQuiet(quietBeforeMs: number): ResolvedLaunch[] {
    const out: ResolvedLaunch[] = [];
    for (const [mint, m] of this.open) {
      if (m.lastEventMs >= quietBeforeMs) continue;
      this.open.delete(mint);
      this.done.add(mint);
      out.push(this.resolveLaunch(m));
    }
    return out;
  }

  private onCreate(c: CreateEvent): void {
    if (this.open.has(c.mint) || this.done.has(c.mint) || this.mayhem.has(c.mint)) return;
    this.counts.launches++;
    if (c.mayhem) {
      this.counts.mayhemSkipped++;
      this.mayhem.add(c.mint);
      return;
    }
    const rec = this.creatorRecords.get(c.creator);
    this.open.set(c.mint, {
      create: c,
      horizonMs: c.at.getTime() + this.horizonS * 1000,
      trades: new LabelTrades(c, c.at.getTime() + KEEP_ALL_S * 1000),
      graduatedAt: null,
      lastEventMs: c.at.getTime(),
      creator: { launches: rec?.total ?? 0, graduates: rec?.graduated ?? 0, rugs: rec?.rugged ?? 0 },
      smartAt: new Map(),
    });
    this.queue.push(c.mint);
    for (const q of this.snapshotQueues.values()) q.mints.push(c.mint);
  }

  /** Takes every snapshot and resolution due strictly before `nowMs`, earliest first (a snapshot before a resolution at the same moment). */
  private advance(nowMs: number): ResolvedLaunch[] {
    const out: ResolvedLaunch[] = [];
    for (;;) {
      let snapAge: ScoreAge | null = null;
      let snapMs = Infinity;
      for (const [age, q] of this.snapshotQueues) {
        while (q.head < q.mints.length && !this.open.has(q.mints[q.head]!)) q.head++;
        const m = q.head < q.mints.length ? this.open.get(q.mints[q.head]!)! : null;
        const at = m ? m.create.at.getTime() + age * 1000 : Infinity;
        if (at < snapMs) {
          snapMs = at;
          snapAge = age;
        }
      }
      const resMs = this.nextHorizonMs();
      if (snapAge !== null && snapMs < nowMs && snapMs <= resMs) {
        const q = this.snapshotQueues.get(snapAge)!;
        this.snapshot(this.open.get(q.mints[q.head++]!)!, snapAge);
        if (q.head > 4096 && q.head * 2 > q.mints.length) {
          q.mints.splice(0, q.head);
          q.head = 0;
        }
      } else if (resMs < nowMs) out.push(...this.resolveUntil(resMs + 0.5));
      else return out;
    }
  }

  private nextHorizonMs(): number {
    while (this.queueHead < this.queue.length && !this.open.has(this.queue[this.queueHead]!)) this.queueHead++;
    return this.queueHead < this.queue.length ? this.open.get(this.queue[this.queueHead]!)!.horizonMs : Infinity;
  }

  private snapshot(m: Open, age: ScoreAge): void {
    const cutoff = m.create.at.getTime() + age * 1000;
    const smart = new Set<string>();
    for (const t of m.trades.trades()) {
      if (!t.isBuy || t.at.getTime() > cutoff || t.trader === m.create.creator || smart.has(t.trader)) continue;
      const r = this.walletRecords.get(t.trader);
      if (r && this.isSmart(r)) smart.add(t.trader);
    }
    m.smartAt.set(age, smart);
  }

  private learn(m: Open, l: ResolvedLaunch): void {
    const add = (map: Map<string, Record3>, key: string) => {
      const r = map.get(key) ?? { total: 0, graduated: 0, rugged: 0 };
      r.total++;
      if (l.outcome.graduated) r.graduated++;
      if (l.outcome.rugged) r.rugged++;
      map.set(key, r);
    };
    add(this.creatorRecords, m.create.creator);
    const lastScoreMs = m.create.at.getTime() + Math.max(...SCORE_AGES) * 1000;
    const buyers = new Set<string>();
    for (const t of m.trades.trades()) if (t.isBuy && t.trader !== m.create.creator && t.at.getTime() <= lastScoreMs) buyers.add(t.trader);
    for (const w of buyers) add(this.walletRecords, w);
  }

  private resolveUntil(nowMs: number): ResolvedLaunch[] {
    const out: ResolvedLaunch[] = [];
    while (this.queueHead < this.queue.length) {
      const mint = this.queue[this.queueHead]!;
      const m = this.open.get(mint);
      if (!m) {
        this.queueHead++; // resolved early by resolveQuiet
        continue;
      }
      // Strictly past: an event at the horizon itself still counts towards the label.
      if (!(nowMs > m.horizonMs)) break;
      this.queueHead++;
      this.open.delete(mint);
      this.done.add(mint);
      out.push(this.resolveLaunch(m));
    }
    if (this.queueHead > 4096 && this.queueHead * 2 > this.queue.length) {
      this.queue.splice(0, this.queueHead);
      this.queueHead = 0;
    }
    return out;
  }

  private resolveLaunch(m: Open): ResolvedLaunch {
    // A launch resolved early (resolveQuiet) may not have reached a scoring age on the clock yet: as of now is earlier
    // than that age, so still no later than it.
    for (const age of SCORE_AGES) if (!m.smartAt.has(age)) this.snapshot(m, age);
    const l = labelLaunch(m.create, m.trades.trades(), m.graduatedAt, new Date(m.horizonMs), this.isFresh, (age) => ({
      creator: m.creator,
      smart: m.smartAt.get(age)!,
    }));
    this.learn(m, l);
    const grid = runnerObservations({ create: m.create, tradesAnyOrder: m.trades.trades(), graduatedAt: m.graduatedAt, horizonAt: new Date(m.horizonMs) });
    return { ...l, grid };
  }
}

/** The creator's record as of the launch and the smart wallets as of one scoring age (the folder keeps both). */
export type PointInTime = (ageS: ScoreAge) => { creator: LaunchContext['creator']; smart: ReadonlySet<string> };

const NOTHING_KNOWN: PointInTime = () => ({ creator: { launches: 0, graduates: 0, rugs: 0 }, smart: new Set() });

/** Features at each scoring age before graduation and the outcome labels of one mint, from its trades (any order) by the production code. */
export function labelLaunch(
  create: CreateEvent,
  tradesAnyOrder: readonly TradeEvent[],
  graduatedAt: Date | null,
  horizonAt: Date,
  isFresh: FreshnessLookup = () => false,
  known: PointInTime = NOTHING_KNOWN,
): ResolvedLaunch {
  const trades = [...tradesAnyOrder].sort((a, b) => a.at.getTime() - b.at.getTime() || (a.slot ?? 0) - (b.slot ?? 0));
  const outcome = resolveOutcome({ create, trades, horizonAt, graduatedAt, checkpointPricesSol: [] });
  // No observation at or after graduation: production logs no score then (the curve's end is known, not forecast),
  // so history that kept one would teach the models, and score the backtest on, rows no live mint can produce.
  const ages = SCORE_AGES.filter((ageS) => graduatedAt === null || create.at.getTime() + ageS * 1000 < graduatedAt.getTime());
  const observations = ages.map((ageS): Observation => {
    const observedAt = new Date(create.at.getTime() + ageS * 1000);
    const priceSol = priceAt(create, trades, observedAt);
    const k = known(ageS);
    const context: LaunchContext = { isFresh: (w) => isFresh(w, create.at.getTime()), isSmart: (w) => k.smart.has(w), creator: k.creator };
    return {
      ageS,
      observedAt,
      features: { ...computeFeatures(create, trades, ageS), launch: computeLaunchFeatures(create, trades, ageS, context) },
      rugFeatures: rugFeaturesAt(create, trades, observedAt, isFresh),
      priceSol,
      peakMultFromCall: peakMultFrom(priceSol, observedAt, trades, horizonAt),
    };
  });
  return { mint: create.mint, createdAt: create.at, resolvedAt: horizonAt, outcome, observations };
}

/** The rug features production logs with a score at `observedAt`: the tape of the trades up to then. */
function rugFeaturesAt(create: CreateEvent, trades: readonly TradeEvent[], observedAt: Date, isFresh: FreshnessLookup): RugFeatures {
  const tape = new MintTape(create);
  for (const t of trades) if (t.at.getTime() <= observedAt.getTime()) tape.apply(t);
  const known: Freshness = new Map(tape.firstBuyers.map((w) => [w, isFresh(w, create.at.getTime())]));
  return computeRugFeatures(tape, freshAmongFirstBuyers(tape, known));
}
