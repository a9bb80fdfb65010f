/**
 * Replays a recorded launchpad event stream as a live feed.
 *
 * File format (details in FORMAT.md): UTF-8 JSON Lines, one object per line,
 *   {"t": <ms offset from the first event>, "event": <LaunchEvent, `at` as an ISO-8601 string>}
 * in non-decreasing `t`. `t` says when to deliver the event, `event.at` when it happened. Blank lines are
 * skipped; a line that does not parse is counted as a bad frame and skipped.
 *
 * Timing: the event with offset `t` is delivered at `start + t / speed` (speed 1 = real time, 10 = ten times
 * faster, 0 = as fast as the sink accepts). Re-basing (on by default) moves `at` so the stream looks live:
 * `at' = start + (at - firstAt) / speed` (factor 1 at speed 0), keeping relative timing, so ages computed
 * from `at` match the wall clock the rest of the system sees.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import type { LaunchEvent } from '../../domain/launch/launch-events';
import type { Logger } from '../../platform/logger';
import type { FeedStats, LaunchFeed } from '../launch-feed';
import { cancellableSleep } from '../../platform/net/backoff';
import { FeedStatsRecorder } from '../feed-runtime/feed-stats-recorder';
import { parseReplayLine, type ReplayLine } from './replay-format';

export { formatReplayLine, parseReplayLine, writeReplayFile, type ReplayLine } from './replay-format';

export type ReplayFeedOptions = {
  filePath: string;
  logger: Logger;
  /** 1 = real time, 10 = ten times faster, 0 = as fast as possible. */
  speed?: number;
  /** Move `at` to "now" at the start (default true); false keeps the recorded times. */
  rebase?: boolean;
  name?: string;
  /** Events due within this window of the batch's first are delivered together (so at most this late). */
  batch?: { maxEvents: number; maxDelayMs: number };
  now?: () => number;
};

export class ReplayFeed implements LaunchFeed {
  readonly name: string;
  private readonly rec: FeedStatsRecorder;
  private readonly speed: number;
  private stopped = false;
  private cancelSleep: (() => void) | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly o: ReplayFeedOptions) {
    this.name = o.name ?? 'replay';
    this.speed = o.speed ?? 1;
    if (!(this.speed >= 0) || !Number.isFinite(this.speed)) throw new Error(`replay speed must be a finite number ≥ 0, got ${o.speed}`);
    this.rec = new FeedStatsRecorder(this.name, o.logger);
  }

  start(sink: (events: LaunchEvent[]) => Promise<void>): void {
    if (this.running) throw new Error(`${this.name} already started`);
    this.rec.connected(true);
    this.running = this.run(sink)
      .catch((e) => this.o.logger.error({ err: e, file: this.o.filePath }, 'replay failed'))
      .finally(() => this.rec.connected(false));
  }

  /** Resolves when the whole file has been delivered (or the replay stopped or failed). */
  async done(): Promise<void> {
    await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelSleep?.();
    await this.running;
  }

  stats(): FeedStats {
    return this.rec.snapshot();
  }

  private now(): number {
    return this.o.now?.() ?? Date.now();
  }

  private async run(sink: (events: LaunchEvent[]) => Promise<void>): Promise<void> {
    const maxEvents = this.o.batch?.maxEvents ?? 500;
    const maxDelayMs = this.o.batch?.maxDelayMs ?? 20;
    const rebase = this.o.rebase ?? true;
    const scale = this.speed > 0 ? this.speed : 1;
    const start = this.now();
    let firstAt: number | null = null;
    let batch: LaunchEvent[] = [];
    let batchDue = 0;
    const deliver = async () => {
      if (batch.length === 0) return;
      const b = batch;
      batch = [];
      await sink(b);
      this.rec.emitted(b.length);
    };
    // readline's async iterator pauses the file stream while lines wait: memory stays bounded by one chunk.
    const lines = readline.createInterface({ input: fs.createReadStream(this.o.filePath, { encoding: 'utf8' }), crlfDelay: Infinity });
    try {
      let n = 0;
      for await (const text of lines) {
        n++;
        if (this.stopped) break;
        if (text.trim() === '') continue;
        this.rec.frame();
        let parsed: ReplayLine;
        try {
          parsed = parseReplayLine(text);
        } catch (e) {
          this.rec.bad(`line ${n}: ${(e as Error).message}`, text);
          continue;
        }
        const { t, event } = parsed;
        firstAt ??= event.at.getTime();
        const due = this.speed > 0 ? start + t / this.speed : start;
        if (batch.length > 0 && (due - batchDue > maxDelayMs || batch.length >= maxEvents)) await deliver();
        const wait = due - this.now();
        if (wait > 0 && !(await this.sleep(wait))) break;
        if (batch.length === 0) batchDue = due;
        const at = rebase ? new Date(start + (event.at.getTime() - firstAt) / scale) : event.at;
        batch.push({ ...event, at, source: this.name });
      }
      if (!this.stopped) await deliver();
    } finally {
      lines.close();
    }
  }

  private async sleep(ms: number): Promise<boolean> {
    const s = cancellableSleep(ms);
    this.cancelSleep = s.cancel;
    const slept = await s.done;
    this.cancelSleep = null;
    return slept && !this.stopped;
  }
}
