import type { LaunchEventStore } from '../../db/mint/launch-event-store';
import { eventKey, type LaunchEvent } from '../../domain/launch/launch-events';
import type { Logger } from '../../platform/logger';
import type { MintLifecycleStarter } from '../../workflows/mint/mint-lifecycle-starter';

/**
 * received = duplicatesSkipped + alreadyStored + written. `written` counts events that stored something new
 * (rows the database reports inserted), never attempts: a feed replaying what is stored shows as alreadyStored.
 */
export type IngestCounters = {
  received: number;
  written: number;
  /** Dropped before the write: this process had already seen the event's key. */
  duplicatesSkipped: number;
  /** Reached the database but stored nothing new: already there (an earlier run, another feed) or repeated in the batch. */
  alreadyStored: number;
  mintsStarted: number;
  graduationsSignalled: number;
  batches: number;
};

/**
 * Turns feed batches into durable facts, then into workflow commands:
 * 1. drop events already seen by this process (a bounded key set; the database keys are the real guarantee);
 * 2. write the batch in one transaction, idempotently (the feed's sink resolves only after this commit), and
 *    when it stored trades, say so (`tradesDurable`: the live projector evaluates the composite signal at once);
 * 3. start a lifecycle workflow per new non-mayhem mint and signal new graduations, marking each in the outbox.
 * A crash between 2 and 3 is healed by `sweep()`, which re-drives whatever the outbox still holds.
 */
export function createIngestPipeline(d: {
  store: LaunchEventStore;
  starter: MintLifecycleStarter;
  log: Logger;
  now: () => Date;
  recentKeys?: number;
  /** Called once trades are committed; must not wait (live-projector-starter.ts `createLiveProjectorWaker`). */
  tradesDurable?: () => void;
}) {
  const capacity = d.recentKeys ?? 200_000;
  const seen = new Set<string>();
  const counters: IngestCounters = { received: 0, written: 0, duplicatesSkipped: 0, alreadyStored: 0, mintsStarted: 0, graduationsSignalled: 0, batches: 0 };
  let queue: Promise<unknown> = Promise.resolve();

  const remember = (k: string) => {
    seen.add(k);
    if (seen.size > capacity) seen.delete(seen.values().next().value as string);
  };

  async function startAll(mints: { mint: string; createdAt: Date }[]) {
    const started: string[] = [];
    // A few in parallel: each start is one round trip to Temporal.
    for (let i = 0; i < mints.length; i += 16) {
      const part = mints.slice(i, i + 16);
      await Promise.all(part.map((m) => d.starter.start(m.mint, m.createdAt)));
      started.push(...part.map((m) => m.mint));
    }
    await d.store.markWorkflowStarted(started, d.now());
    counters.mintsStarted += started.length;
  }

  async function signalAll(graduations: { mint: string; at: Date }[]) {
    await Promise.all(graduations.map((g) => d.starter.signalGraduated(g.mint, g.at)));
    await d.store.markSignalled(
      graduations.map((g) => g.mint),
      d.now(),
    );
    counters.graduationsSignalled += graduations.length;
  }

  return {
    counters,

    /**
     * The sink every feed delivers to; resolves once the batch is durable and its commands are sent. Batches
     * from all feeds are written one at a time, so trade `seq` order is commit order (the live projector
     * reads trades incrementally by seq).
     */
    handle(events: LaunchEvent[]): Promise<void> {
      const next = queue.then(() => handleOne(events));
      queue = next.catch(() => undefined);
      return next;
    },

    /** Re-drives the outbox: lifecycles not yet started and graduations not yet signalled. */
    async sweep(lookbackS = 24 * 3600): Promise<{ started: number; signalled: number }> {
      const run = queue.then(() => sweepOnce(lookbackS));
      queue = run.catch(() => undefined);
      return run;
    },
  };

  async function handleOne(events: LaunchEvent[]): Promise<void> {
    counters.batches++;
    counters.received += events.length;
    const fresh = events.filter((e) => !seen.has(eventKey(e)));
    counters.duplicatesSkipped += events.length - fresh.length;
    if (!fresh.length) return;
    const r = await d.store.writeBatch(fresh);
    for (const e of fresh) remember(eventKey(e));
    counters.written += r.written;
    counters.alreadyStored += fresh.length - r.written;
    if (r.tradesInserted > 0) d.tradesDurable?.();
    await startAll(r.newMints.filter((m) => !m.mayhem));
    if (r.newGraduations.length) await signalAll(r.newGraduations);
  }

  async function sweepOnce(lookbackS: number): Promise<{ started: number; signalled: number }> {
    const pending = await d.store.pendingWorkflowStarts(new Date(d.now().getTime() - lookbackS * 1000), 500);
    if (pending.length) await startAll(pending);
    const grads = await d.store.pendingGraduationSignals(500);
    if (grads.length) await signalAll(grads);
    if (pending.length || grads.length) d.log.info({ started: pending.length, signalled: grads.length }, 'outbox sweep re-drove commands');
    return { started: pending.length, signalled: grads.length };
  }
}
export type IngestPipeline = ReturnType<typeof createIngestPipeline>;
