import type { LaunchEvent } from '../../domain/launch/launch-events';
import { AddressBook } from './address-book';
import { EventQueue } from './event-queue';
import { drawLaunchProfile, winnerOdds, type CreatorKind } from './launch-profile';
import { MintSimulation, type MintContext } from './mint-simulation';
import { SeededRandom } from './seeded-random';

// Bound once: global lookups are slow under jest's vm sandbox (see seeded-random.ts).
const { floor, max, round } = Math;
const NativeDate = Date;

/**
 * A launchpad market generated from a seed on a virtual clock: launches arrive as a Poisson process; each
 * launch draws its creator (a standing pool with runner creators and serial ruggers), its fate and its bots
 * (bundles in the creation slot, snipers in the first seconds) and then trades on a constant-product curve
 * until it graduates (complete, then migrate), dies or ages out. Same seed, run and start → same market,
 * event for event.
 */
export type MarketSimulatorOptions = {
  seed: number;
  /**
   * Which run of the seed's market. A restarted live feed passes a new run so that its launches, mints and
   * signatures are new (the database already holds the old ones), while the standing populations (creators,
   * traders, bots) recur, so creator records carry over. Omitted (backtests, tests), the seed alone decides,
   * exactly as before runs existed.
   */
  run?: number;
  /** Virtual time the market opens at; defaults to the `fromMs` of the first `events` call. */
  startMs?: number;
  /**
   * No launch at or after this time: the mints already launched play out to their end and then the market is
   * empty (`events` returns). Seeded history uses it to label every mint of a window exactly, without cutting
   * the tail short. Omitted, launches never stop.
   */
  launchesUntilMs?: number;
  /** Launches per second (0.3 ≈ 26k a day, the late-2025 scale). */
  launchesPerSecond?: number;
  /**
   * Multiplies every mint's organic trade rate (1 = the calibrated market). Load tests use it to reach a
   * trades-per-second target without changing the launch rate.
   */
  tradeIntensity?: number;
  /** Share of launches that graduate (domain notes: 0.2–2.6% depending on the period). */
  graduationShare?: number;
  /** Share of launches in mayhem mode (the recorded PumpPortal session: 36 of 198). */
  mayhemShare?: number;
  /** A mint with no trade for this long is dead and forgotten. */
  deadAfterMs?: number;
  /** Mints are forgotten at this age whatever they do (mayhem agents trade for 24 h). */
  maxAgeMs?: number;
  /** Slot of the first launch; slots advance every 400 ms (~2.5/s). */
  firstSlot?: number;
  population?: Partial<Population>;
};

export type Population = {
  /** Creators whose launches graduate far more often, and the share of launches they make. */
  runnerCreators: number;
  runnerLaunchShare: number;
  /** Serial launchers that mostly rug, and their share of launches. */
  ruggerCreators: number;
  ruggerLaunchShare: number;
  /** Everyone else launching (each launches about once a day at the default rate). */
  creators: number;
  retailWallets: number;
  smartWallets: number;
  sniperBots: number;
};

export type MarketStats = {
  launches: number;
  mayhemLaunches: number;
  graduations: number;
  migrations: number;
  trades: number;
  events: number;
  fates: Record<'winner' | 'near-miss' | 'rug' | 'dud', number>;
  activeMints: number;
  peakActiveMints: number;
  dropped: { dead: number; aged: number };
};

export interface MarketSimulator {
  /**
   * Every event with fromMs <= at < toMs in time order, advancing the virtual clock to toMs. Events before
   * fromMs not generated yet are simulated and skipped; a window before the clock cannot be replayed
   * (make a new simulator with the same seed).
   */
  events(fromMs: number, toMs: number): Generator<LaunchEvent, void, undefined>;
  stats(): MarketStats;
}

export const DEFAULT_POPULATION: Population = {
  runnerCreators: 40,
  runnerLaunchShare: 0.02,
  ruggerCreators: 60,
  ruggerLaunchShare: 0.25,
  creators: 20_000,
  retailWallets: 100_000,
  smartWallets: 500,
  sniperBots: 300,
};

type Scheduled = { kind: 'launch' } | { kind: 'mint'; sim: MintSimulation } | { kind: 'migrate'; sim: MintSimulation };

export function createMarketSimulator(opts: MarketSimulatorOptions): MarketSimulator {
  const launchesPerSecond = opts.launchesPerSecond ?? 0.3;
  const graduationShare = opts.graduationShare ?? 0.01;
  const mayhemShare = opts.mayhemShare ?? 0.15;
  const tradeIntensity = opts.tradeIntensity ?? 1;
  if (!(tradeIntensity > 0)) throw new RangeError('tradeIntensity must be > 0');
  const pop: Population = { ...DEFAULT_POPULATION, ...opts.population };
  if (!(launchesPerSecond > 0)) throw new RangeError('launchesPerSecond must be > 0');
  if (!(graduationShare >= 0 && graduationShare <= 1) || !(mayhemShare >= 0 && mayhemShare <= 1)) throw new RangeError('shares must be in [0, 1]');
  const odds = winnerOdds(graduationShare, pop.runnerLaunchShare, pop.ruggerLaunchShare);
  const runId = opts.run;
  if (runId !== undefined && !Number.isSafeInteger(runId)) throw new RangeError('run must be an integer');
  // Per-run streams are 128-bit: a long demo restarted many times must never draw a mint address twice.
  const stream = (...parts: (string | number)[]) =>
    runId === undefined ? SeededRandom.derive(opts.seed, ...parts) : SeededRandom.deriveWide(opts.seed, 'run', runId, ...parts);
  const launchRng = stream('launches');
  const queue = new EventQueue<Scheduled>();
  const stats: MarketStats = {
    launches: 0,
    mayhemLaunches: 0,
    graduations: 0,
    migrations: 0,
    trades: 0,
    events: 0,
    fates: { winner: 0, 'near-miss': 0, rug: 0, dud: 0 },
    activeMints: 0,
    peakActiveMints: 0,
    dropped: { dead: 0, aged: 0 },
  };
  let startMs: number | null = opts.startMs ?? null;
  let clockMs = -Infinity;
  let ctx: MintContext | null = null;
  // Events of the action being emitted; they survive a generator closed half-way through an action.
  let pending: LaunchEvent[] = [];
  let pendingAt = 0;

  const open = (atMs: number): MintContext => {
    const start = startMs ?? atMs;
    startMs = start;
    const firstSlot = opts.firstSlot ?? 350_000_000;
    scheduleLaunch(start + round(launchRng.exponential(launchesPerSecond) * 1000));
    return {
      book: new AddressBook(opts.seed),
      slotAt: (t) => firstSlot + floor((t - start) / 400),
      retailWallets: pop.retailWallets,
      smartWallets: pop.smartWallets,
      sniperBots: pop.sniperBots,
      deadAfterMs: opts.deadAfterMs ?? 15 * 60_000,
      maxAgeMs: opts.maxAgeMs ?? 24 * 3_600_000,
      migrationDelayMs: [2_000, 20_000],
    };
  };

  const launch = (c: MintContext, atMs: number): LaunchEvent[] => {
    const index = stats.launches++;
    const rng = stream('mint', index);
    const u = rng.float();
    const kind: CreatorKind = u < pop.runnerLaunchShare ? 'runner' : u < pop.runnerLaunchShare + pop.ruggerLaunchShare ? 'rugger' : 'normal';
    const creatorIndex = rng.int(0, kind === 'runner' ? pop.runnerCreators : kind === 'rugger' ? pop.ruggerCreators : pop.creators);
    const mayhem = rng.chance(mayhemShare);
    const drawn = drawLaunchProfile(rng, kind, odds[kind]);
    const profile =
      tradeIntensity === 1
        ? drawn
        : {
            ...drawn,
            phases: drawn.phases.map((ph) => ({
              ...ph,
              rate0: ph.rate0 * tradeIntensity,
              maxRate: ph.maxRate === undefined ? undefined : ph.maxRate * tradeIntensity,
            })),
          };
    stats.fates[profile.fate]++;
    if (mayhem) stats.mayhemLaunches++;
    const sim = new MintSimulation(c, rng, atMs, profile, kind, creatorIndex, mayhem);
    stats.activeMints++;
    stats.peakActiveMints = max(stats.peakActiveMints, stats.activeMints);
    const events = sim.launch();
    reschedule(sim);
    scheduleLaunch(atMs + max(1, round(launchRng.exponential(launchesPerSecond) * 1000)));
    return events;
  };

  const launchesUntilMs = opts.launchesUntilMs ?? Infinity;
  function scheduleLaunch(atMs: number) {
    if (atMs < launchesUntilMs) queue.push(atMs, { kind: 'launch' });
  }

  /** Puts a mint back on the queue, or forgets it (it graduated, died or aged out). */
  const reschedule = (sim: MintSimulation) => {
    if (sim.outcome === 'active') {
      queue.push(sim.nextAtMs()!, { kind: 'mint', sim });
      return;
    }
    stats.activeMints--;
    if (sim.outcome === 'graduated') {
      stats.graduations++;
      queue.push(sim.migration!.atMs, { kind: 'migrate', sim });
    } else stats.dropped[sim.outcome]++;
  };

  const run = (c: MintContext, item: Scheduled, atMs: number): LaunchEvent[] => {
    if (item.kind === 'launch') return launch(c, atMs);
    if (item.kind === 'mint') {
      const events = item.sim.step(atMs);
      reschedule(item.sim);
      return events;
    }
    stats.migrations++;
    const m = item.sim.migration!;
    return [
      {
        signature: m.signature,
        ordinal: 0,
        slot: c.slotAt(atMs),
        at: new NativeDate(atMs),
        source: 'simulator',
        mint: item.sim.mint,
        kind: 'migrate',
        pool: m.pool,
      },
    ];
  };

  function* events(fromMs: number, toMs: number): Generator<LaunchEvent, void, undefined> {
    if (fromMs < clockMs) throw new RangeError(`cannot rewind the market from ${clockMs} to ${fromMs}; create a new simulator with the same seed`);
    if (ctx === null) ctx = open(fromMs);
    const c = ctx;
    for (;;) {
      if (pending.length === 0) {
        const t = queue.peekTime();
        if (t === null || t >= toMs) break;
        const next = queue.pop()!;
        pending = run(c, next.item, next.atMs);
        pendingAt = next.atMs;
        clockMs = max(clockMs, next.atMs);
        continue;
      }
      if (pendingAt >= toMs) break;
      const e = pending.shift()!;
      stats.events++;
      if (e.kind === 'trade') stats.trades++;
      if (pendingAt >= fromMs) yield e;
    }
    clockMs = max(clockMs, toMs);
  }

  return { events, stats: () => ({ ...stats, fates: { ...stats.fates }, dropped: { ...stats.dropped } }) };
}
