import type { LaunchEvent } from '../../domain/launch/launch-events';
import type { Logger } from '../../platform/logger';
import type { FeedStats, LaunchFeed } from '../launch-feed';
import type { BackoffOptions } from '../../platform/net/backoff';
import { BoundedMap } from '../feed-runtime/bounded-map';
import type { EventBatcher } from '../feed-runtime/event-batcher';
import { createWebsocketFeedBatcher } from '../feed-runtime/websocket-feed-batcher';
import { FeedStatsRecorder } from '../feed-runtime/feed-stats-recorder';
import { ReconnectingWebSocket } from '../../platform/net/reconnecting-websocket';
import { parsePumpPortalFrame } from './pumpportal-parser';

export type PumpPortalFeedOptions = {
  /** e.g. `wss://pumpportal.fun/api/data` (with `?api-key=…` for metered trade streams). */
  url: string;
  logger: Logger;
  name?: string;
  backoff?: BackoffOptions;
  pingIntervalMs?: number;
  connectTimeoutMs?: number;
  batch?: { maxEvents: number; maxDelayMs: number };
  maxBufferedEvents?: number;
  /** Trade subscriptions are metered per mint; beyond this many `track` refuses (and logs) rather than grow. */
  maxTrackedMints?: number;
  /** Mints per subscribe/unsubscribe message. */
  keysPerMessage?: number;
};

export type PumpPortalFeedStats = FeedStats & {
  gapsTotal: number;
  droppedEvents: number;
  /** Frames of other launchpads or of post-graduation AMM trades. */
  ignoredFrames: number;
  trackedMints: number;
  trackRefused: number;
};

/**
 * Launchpad events from a PumpPortal-style websocket: new tokens and migrations for everyone, trades for the
 * mints being tracked. Subscriptions are re-sent on every reconnect (the server forgets them with the
 * connection). The protocol has no history, so a lost connection is reported as a gap for another feed to fill.
 */
export class PumpPortalFeed implements LaunchFeed {
  readonly name: string;
  private readonly rec: FeedStatsRecorder;
  private readonly socket: ReconnectingWebSocket;
  private readonly tracked = new Set<string>();
  private readonly ordinals = new BoundedMap<string, number>(10_000);
  private batcher: EventBatcher | null = null;
  private everOpened = false;
  private awaitingFirstFrame = false;
  private gap: ReturnType<FeedStatsRecorder['openGap']> | null = null;
  private counters = { droppedEvents: 0, ignoredFrames: 0, trackRefused: 0 };

  constructor(private readonly o: PumpPortalFeedOptions) {
    this.name = o.name ?? 'pumpportal';
    this.rec = new FeedStatsRecorder(this.name, o.logger);
    this.socket = new ReconnectingWebSocket(
      {
        url: o.url,
        logger: o.logger,
        backoff: o.backoff ?? { baseMs: 1_000, maxMs: 60_000 },
        pingIntervalMs: o.pingIntervalMs ?? 30_000,
        connectTimeoutMs: o.connectTimeoutMs ?? 10_000,
        maxFrameBytes: 1024 * 1024,
      },
      { opened: (send) => this.onOpened(send), message: (t) => this.onFrame(t), lost: (at, reason) => this.onLost(at, reason) },
    );
  }

  start(sink: (events: LaunchEvent[]) => Promise<void>): void {
    if (this.batcher) throw new Error(`${this.name} already started`);
    this.batcher = createWebsocketFeedBatcher(sink, this.o, this.rec, (n) => (this.counters.droppedEvents += n));
    this.socket.start();
  }

  track(mints: string[]): void {
    const added: string[] = [];
    for (const m of mints) {
      if (this.tracked.has(m)) continue;
      if (this.tracked.size >= (this.o.maxTrackedMints ?? 5_000)) {
        this.counters.trackRefused++;
        this.o.logger.error({ feed: this.name, mint: m, tracked: this.tracked.size }, 'too many tracked mints: trade subscription refused');
        continue;
      }
      this.tracked.add(m);
      added.push(m);
    }
    // While disconnected the set is simply re-sent on the next open.
    this.sendKeys('subscribeTokenTrade', added, (t) => this.socket.send(t));
  }

  untrack(mints: string[]): void {
    const removed = mints.filter((m) => this.tracked.delete(m));
    this.sendKeys('unsubscribeTokenTrade', removed, (t) => this.socket.send(t));
  }

  async stop(): Promise<void> {
    await this.socket.stop();
    this.rec.connected(false);
    await this.batcher?.stop();
  }

  stats(): PumpPortalFeedStats {
    return { ...this.rec.snapshot(), ...this.counters, trackedMints: this.tracked.size };
  }

  /** Resolves once every event received so far has been delivered. */
  async flushed(): Promise<void> {
    await this.batcher?.flush();
  }

  private onOpened(send: (text: string) => boolean): void {
    send(JSON.stringify({ method: 'subscribeNewToken' }));
    send(JSON.stringify({ method: 'subscribeMigration' }));
    this.sendKeys('subscribeTokenTrade', [...this.tracked], send);
    this.rec.connected(true);
    if (this.everOpened) this.rec.reconnected();
    this.everOpened = true;
    this.awaitingFirstFrame = true;
    if (this.gap) this.rec.closeGap(this.gap, new Date());
    this.gap = null;
  }

  private onLost(at: Date, reason: string): void {
    this.rec.connected(false);
    if (!this.everOpened || this.gap) return;
    this.o.logger.warn({ feed: this.name, reason }, 'feed disconnected');
    this.gap = this.rec.openGap(at);
  }

  private onFrame(text: string): void {
    this.rec.frame();
    if (this.awaitingFirstFrame) {
      // The server answered on this connection: back off from the base again after the next loss.
      this.awaitingFirstFrame = false;
      this.socket.healthy();
    }
    const r = parsePumpPortalFrame(text, { receivedAt: new Date(), source: this.name, ordinal: (s, k, m) => this.nextOrdinal(s, k, m) });
    switch (r.kind) {
      case 'events':
        return this.batcher?.push(r.events);
      case 'notice':
        return r.error
          ? this.o.logger.warn({ feed: this.name, notice: r.message }, 'feed error notice')
          : this.o.logger.info({ feed: this.name, notice: r.message }, 'feed notice');
      case 'ignored':
        this.counters.ignoredFrames++;
        return;
      case 'bad':
        return this.rec.bad(r.reason, text);
    }
  }

  private nextOrdinal(signature: string, kind: LaunchEvent['kind'], mint: string): number {
    const k = `${signature}:${kind}:${mint}`;
    const n = this.ordinals.get(k) ?? 0;
    this.ordinals.set(k, n + 1);
    return n;
  }

  private sendKeys(method: 'subscribeTokenTrade' | 'unsubscribeTokenTrade', keys: string[], send: (text: string) => boolean): void {
    const per = this.o.keysPerMessage ?? 100;
    for (let i = 0; i < keys.length; i += per) send(JSON.stringify({ method, keys: keys.slice(i, i + per) }));
  }
}
