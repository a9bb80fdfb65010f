import type { LaunchEvent } from '../../domain/launch/launch-events';
import type { FeedStats, LaunchFeed } from '../launch-feed';
import { createMarketSimulator, type MarketSimulatorOptions } from './market-simulator';

/**
 * The simulator as a live feed: the market opens when the feed starts and plays out in real time (or
 * `speed` times faster), delivered in batches every `batchIntervalMs`. Each event's `at` is the wall-clock
 * moment it happens in the feed, never in the future, so the rest of the system treats simulated launches
 * as live. A slow sink holds the next batch back (back-pressure); the market catches up afterwards.
 *
 * Every start is a new run of the seed's market (`run` defaults to the start time in ms): a restarted feed
 * writes new mints and signatures at later times and later slots instead of replaying the ones the database
 * already holds, which the idempotent writes would drop. Mints of the stopped run simply trade no more.
 */
export type SimulatorFeedOptions = Omit<MarketSimulatorOptions, 'startMs'> & {
  name?: string;
  /** Virtual seconds per wall second (a 6-minute graduation takes 36 s at 10). */
  speed?: number;
  batchIntervalMs?: number;
  /** Cap on one batch; a backlog is delivered in consecutive batches without waiting. */
  maxBatchEvents?: number;
  now?: () => number;
  /** Told about every failed delivery; the same batch is retried with backoff until it lands or the feed stops. */
  onSinkError?: (error: unknown, attempt: number) => void;
  /** Told if the feed itself fails (a simulator bug); the feed then stops instead of crashing the process. */
  onFailure?: (error: unknown) => void;
};

export function createSimulatorFeed(opts: SimulatorFeedOptions): LaunchFeed {
  const { name = 'simulator', speed = 1, batchIntervalMs = 200, maxBatchEvents = 5_000, now = Date.now, onSinkError, onFailure, ...market } = opts;
  if (!(speed > 0) || !(batchIntervalMs > 0) || !(maxBatchEvents > 0)) throw new RangeError('speed, batchIntervalMs and maxBatchEvents must be > 0');

  const counters = { batches: 0, events: 0, lastEventAt: null as Date | null };
  let running = false;
  let stopped = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  let timer: NodeJS.Timeout | null = null;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, ms);
    });

  async function run(sink: (events: LaunchEvent[]) => Promise<void>): Promise<void> {
    const realStart = now();
    // The market opens now, so at speed 1 virtual time is wall time.
    const stream = createMarketSimulator({
      ...market,
      run: market.run ?? Math.floor(realStart),
      firstSlot: market.firstSlot ?? slotAt(realStart),
      startMs: realStart,
    }).events(realStart, Infinity);
    let held: LaunchEvent | null = null;
    const wallAt = (virtualMs: number) => new Date(Math.floor(realStart + (virtualMs - realStart) / speed));

    while (!stopped) {
      const horizon = realStart + (now() - realStart) * speed;
      const batch: LaunchEvent[] = [];
      while (batch.length < maxBatchEvents) {
        held ??= stream.next().value ?? null;
        if (held === null || held.at.getTime() > horizon) break;
        batch.push(speed === 1 ? held : { ...held, at: wallAt(held.at.getTime()) });
        held = null;
      }
      if (batch.length > 0) {
        await deliver(sink, batch);
        if (stopped) break;
      }
      if (batch.length < maxBatchEvents) await sleep(batchIntervalMs);
      // Behind the clock (a fast speed on a busy machine), batches come out full and the sink may answer at
      // once: without a macrotask turn here the loop would starve timers, stop() included, and never end.
      else await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await stream.return();
  }

  async function deliver(sink: (events: LaunchEvent[]) => Promise<void>, batch: LaunchEvent[]): Promise<void> {
    for (let attempt = 1; !stopped; attempt++) {
      try {
        await sink(batch);
        counters.batches++;
        counters.events += batch.length;
        counters.lastEventAt = batch[batch.length - 1]!.at;
        return;
      } catch (error) {
        onSinkError?.(error, attempt);
        await sleep(Math.min(5_000, 250 * 2 ** Math.min(attempt - 1, 5)));
      }
    }
  }

  return {
    name,
    start(sink) {
      if (running || stopped) throw new Error(`feed ${name} was already started`);
      running = true;
      loop = run(sink)
        .catch((error: unknown) => onFailure?.(error))
        .finally(() => {
          running = false;
        });
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      wake?.();
      await loop;
    },
    stats(): FeedStats {
      return {
        name,
        connected: running,
        framesReceived: counters.batches,
        eventsEmitted: counters.events,
        badFrames: 0,
        reconnects: 0,
        gaps: [],
        lastEventAt: counters.lastEventAt,
      };
    },
  };
}

/** Slots follow the wall clock (anchored near mainnet's, ~2.5 a second), so a later run has later slots. */
const SLOT_ANCHOR = { ms: Date.UTC(2025, 6, 1), slot: 350_000_000 };
const slotAt = (ms: number) => SLOT_ANCHOR.slot + Math.floor((ms - SLOT_ANCHOR.ms) / 400);
