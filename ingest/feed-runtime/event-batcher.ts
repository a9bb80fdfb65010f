import type { LaunchEvent } from '../../domain/launch/launch-events';
import type { Logger } from '../../platform/logger';
import { backoffDelayMs, cancellableSleep, type BackoffOptions } from '../../platform/net/backoff';

export type BatcherOptions = {
  /** Deliver as soon as this many events wait… */
  maxBatch: number;
  /** …or once the oldest waiting event is this old. */
  maxDelayMs: number;
  /** Events held while the sink is busy; beyond it live events are dropped (and reported as a gap). */
  maxBuffered: number;
  /** Backoff between attempts when the sink rejects a batch. */
  retry: BackoffOptions;
  /** How long `stop` keeps trying to deliver what is buffered. */
  drainTimeoutMs: number;
};

export type BatcherHooks = {
  logger: Logger;
  /** The sink acknowledged these events as durable. */
  delivered(events: LaunchEvent[]): void;
  /** Events started being dropped for lack of room; `from` is the first dropped event's time. */
  overflowStarted(from: Date): void;
  /** Room again: `to` is the last dropped event's time. */
  overflowEnded(to: Date, dropped: number): void;
};

type Sink = (events: LaunchEvent[]) => Promise<void>;

/**
 * Groups events into batches and hands them to the sink one batch at a time: the next batch leaves only after
 * the previous one resolved (back-pressure), and a rejected batch is retried with backoff rather than lost.
 * Memory is bounded by `maxBuffered`: a live source cannot be paused, so past it events are dropped and the
 * dropped period is reported; a source that can wait (a backfill) uses `pushWhenRoom` instead.
 */
export class EventBatcher {
  private buffer: LaunchEvent[] = [];
  private oldestAtMs = 0;
  private running = false;
  private stopping = false;
  /** Set when `stop` gave up draining: the delivery loop ends without further attempts. */
  private abandoned = false;
  private cancelRetrySleep: (() => void) | null = null;
  private wake: (() => void) | null = null;
  private roomWaiters: (() => void)[] = [];
  private overflow: { to: Date; dropped: number } | null = null;
  private idle: Promise<void> = Promise.resolve();

  constructor(
    private readonly sink: Sink,
    private readonly opts: BatcherOptions,
    private readonly hooks: BatcherHooks,
  ) {}

  get buffered(): number {
    return this.buffer.length;
  }

  /** Queues events; those that do not fit are dropped (counted, and reported as a gap). */
  push(events: LaunchEvent[]): void {
    if (events.length === 0) return;
    const room = this.stopping ? 0 : Math.max(0, this.opts.maxBuffered - this.buffer.length);
    const accepted = events.length <= room ? events : events.slice(0, room);
    if (accepted.length < events.length) this.dropped(events.slice(accepted.length));
    else this.endOverflow();
    this.enqueue(accepted);
  }

  /** Queues events once there is room for them: the caller waits instead of losing events. */
  async pushWhenRoom(events: LaunchEvent[]): Promise<void> {
    for (let i = 0; i < events.length && !this.stopping;) {
      const room = this.opts.maxBuffered - this.buffer.length;
      if (room <= 0) {
        await new Promise<void>((r) => this.roomWaiters.push(r));
        continue;
      }
      this.enqueue(events.slice(i, i + room));
      i += room;
    }
  }

  /** Resolves once everything queued so far has been delivered (or dropped at stop). */
  async flush(): Promise<void> {
    while (this.buffer.length > 0 || this.running) await this.idle;
  }

  /** Refuses new events and tries, for at most `drainTimeoutMs`, to deliver what is buffered. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.endOverflow();
    this.releaseRoomWaiters();
    this.wake?.();
    const drained = await Promise.race([
      this.flush().then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), this.opts.drainTimeoutMs).unref()),
    ]);
    if (!drained) {
      this.abandoned = true;
      this.wake?.();
      this.cancelRetrySleep?.();
      this.hooks.logger.error({ undelivered: this.buffer.length }, 'feed stopped before its buffer was delivered');
      this.buffer = [];
    }
  }

  private enqueue(events: LaunchEvent[]): void {
    if (events.length === 0) return;
    if (this.buffer.length === 0) this.oldestAtMs = Date.now();
    for (const e of events) this.buffer.push(e);
    if (this.buffer.length >= this.opts.maxBatch) this.wake?.();
    if (!this.running) this.idle = this.run();
  }

  private dropped(events: LaunchEvent[]): void {
    let min = Infinity;
    let max = -Infinity;
    for (const e of events) {
      min = Math.min(min, e.at.getTime());
      max = Math.max(max, e.at.getTime());
    }
    if (!this.overflow) {
      this.hooks.overflowStarted(new Date(min));
      this.overflow = { to: new Date(max), dropped: 0 };
    }
    this.overflow.dropped += events.length;
    this.overflow.to = new Date(Math.max(this.overflow.to.getTime(), max));
  }

  private endOverflow(): void {
    if (!this.overflow) return;
    const { to, dropped } = this.overflow;
    this.overflow = null;
    this.hooks.logger.warn({ dropped }, 'feed buffer overflowed: events dropped');
    this.hooks.overflowEnded(to, dropped);
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (this.buffer.length > 0 && !this.abandoned) {
        const waitMs = this.oldestAtMs + this.opts.maxDelayMs - Date.now();
        if (this.buffer.length < this.opts.maxBatch && waitMs > 0 && !this.stopping) {
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, waitMs);
            this.wake = () => {
              clearTimeout(t);
              resolve();
            };
          });
          this.wake = null;
          continue;
        }
        // Events left behind arrived after the old oldest, so its deadline is a safe (early, never late) one.
        const batch = this.buffer.splice(0, this.opts.maxBatch);
        this.releaseRoomWaiters();
        await this.deliver(batch);
      }
    } finally {
      this.running = false;
    }
  }

  private async deliver(batch: LaunchEvent[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.sink(batch);
        this.hooks.delivered(batch);
        return;
      } catch (e) {
        if (this.abandoned) {
          this.hooks.logger.error({ err: e, events: batch.length }, 'sink rejected a batch at stop; batch lost');
          return;
        }
        this.hooks.logger.warn({ err: e, events: batch.length, attempt }, 'sink rejected a batch; retrying');
        const sleep = cancellableSleep(backoffDelayMs(attempt, this.opts.retry));
        this.cancelRetrySleep = sleep.cancel;
        await sleep.done;
        this.cancelRetrySleep = null;
      }
    }
  }

  private releaseRoomWaiters(): void {
    const waiters = this.roomWaiters;
    this.roomWaiters = [];
    for (const w of waiters) w();
  }
}
