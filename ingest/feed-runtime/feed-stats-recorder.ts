import type { Logger } from '../../platform/logger';
import type { FeedStats } from '../launch-feed';

type Gap = { from: Date; to: Date | null };

/**
 * The counters behind `LaunchFeed.stats()`, shared by every source. The gap list keeps only the latest
 * `maxGaps` periods (a flapping connection must not grow memory); `gapsTotal` counts them all. Bad frames are
 * logged with a sample, at most `badLogsPerMinute` lines a minute so a garbage stream cannot flood the logs.
 */
export class FeedStatsRecorder {
  private readonly s: Omit<FeedStats, 'gaps'> & { gapsTotal: number };
  private readonly gaps: Gap[] = [];
  private badLogWindow = { start: 0, logged: 0, suppressed: 0 };

  constructor(
    name: string,
    private readonly logger: Logger,
    private readonly opts: { maxGaps?: number; badLogsPerMinute?: number; now?: () => Date } = {},
  ) {
    this.s = { name, connected: false, framesReceived: 0, eventsEmitted: 0, badFrames: 0, reconnects: 0, lastEventAt: null, gapsTotal: 0 };
  }

  private now(): Date {
    return this.opts.now?.() ?? new Date();
  }

  frame(): void {
    this.s.framesReceived++;
  }

  connected(up: boolean): void {
    this.s.connected = up;
  }

  reconnected(): void {
    this.s.reconnects++;
  }

  /** Events handed to the sink and acknowledged as durable. */
  emitted(n: number): void {
    this.s.eventsEmitted += n;
    if (n > 0) this.s.lastEventAt = this.now();
  }

  bad(reason: string, sample?: string): void {
    this.s.badFrames++;
    const nowMs = this.now().getTime();
    const w = this.badLogWindow;
    if (nowMs - w.start >= 60_000) {
      if (w.suppressed > 0) this.logger.warn({ feed: this.s.name, suppressed: w.suppressed }, 'bad frames not logged in the last minute');
      this.badLogWindow = { start: nowMs, logged: 0, suppressed: 0 };
    }
    if (this.badLogWindow.logged < (this.opts.badLogsPerMinute ?? 20)) {
      this.badLogWindow.logged++;
      this.logger.warn({ feed: this.s.name, reason, sample: sample?.slice(0, 300) }, 'bad frame');
    } else this.badLogWindow.suppressed++;
  }

  /** Opens a period in which this feed may have missed events; close it with `closeGap`. */
  openGap(from: Date): Gap {
    const gap: Gap = { from, to: null };
    this.gaps.push(gap);
    this.s.gapsTotal++;
    if (this.gaps.length > (this.opts.maxGaps ?? 100)) this.gaps.shift();
    return gap;
  }

  closeGap(gap: Gap, to: Date): void {
    gap.to = to;
  }

  snapshot(): FeedStats & { gapsTotal: number } {
    return { ...this.s, gaps: this.gaps.map((g) => ({ ...g })) };
  }
}
