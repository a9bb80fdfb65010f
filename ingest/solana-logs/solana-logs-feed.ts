import { z } from 'zod';
import type { LaunchEvent } from '../../domain/launch/launch-events';
import type { Logger } from '../../platform/logger';
import type { FeedStats, LaunchFeed } from '../launch-feed';
import type { BackoffOptions } from '../../platform/net/backoff';
import { BoundedMap } from '../feed-runtime/bounded-map';
import type { EventBatcher } from '../feed-runtime/event-batcher';
import { createWebsocketFeedBatcher } from '../feed-runtime/websocket-feed-batcher';
import { FeedStatsRecorder } from '../feed-runtime/feed-stats-recorder';
import { ReconnectingWebSocket } from '../../platform/net/reconnecting-websocket';
import type { PumpEventDecoder, TransactionLogs } from '../../clients/solana/pump/pump-event-decoder';
import { listSignaturesSince, withRetry, type BackfillOptions } from './signature-backfill';
import { createSolanaRpcClient, type SolanaRpcClient } from '../../clients/solana/solana-rpc-client';

export type SolanaLogsFeedOptions = {
  /** Solana RPC websocket endpoint (`wss://…`). */
  wsUrl: string;
  /** Solana JSON-RPC HTTP endpoint, for the backfill. */
  rpcUrl: string;
  decoder: PumpEventDecoder;
  logger: Logger;
  name?: string;
  commitment?: 'confirmed' | 'finalized';
  backoff?: BackoffOptions;
  pingIntervalMs?: number;
  connectTimeoutMs?: number;
  batch?: { maxEvents: number; maxDelayMs: number };
  maxBufferedEvents?: number;
  backfill?: Partial<BackfillOptions>;
  /** Signatures remembered to skip duplicates between the live stream and a backfill. */
  recentSignatures?: number;
  rpcTimeoutMs?: number;
  /**
   * A signature this feed stored durably in an earlier run: the first subscription then backfills everything
   * after it, so the time the process was down is a gap like any other disconnection, not a loss.
   */
  resumeAfter?: string | null;
  /** Replaces the HTTP client (tests of failure paths). */
  rpc?: SolanaRpcClient;
};

export type SolanaLogsFeedStats = FeedStats & {
  gapsTotal: number;
  /** Live events dropped because the sink fell behind by more than the buffer. */
  droppedEvents: number;
  backfill: { runs: number; transactions: number; events: number; incomplete: number };
};

const reply = z.object({ id: z.number(), result: z.number() });
const errorReply = z.object({ id: z.number(), error: z.object({ code: z.number(), message: z.string() }) });
const notification = z.object({
  method: z.literal('logsNotification'),
  params: z.object({
    subscription: z.number(),
    result: z.object({
      context: z.object({ slot: z.number().int() }),
      value: z.object({ signature: z.string().min(32), err: z.unknown(), logs: z.array(z.string()) }),
    }),
  }),
});

/**
 * Launchpad events from Solana RPC `logsSubscribe` on the program, decoded from its Anchor event logs.
 * After a lost connection it resubscribes and backfills the hole over HTTP: every transaction that mentions the
 * program since the last one it saw (`getSignaturesForAddress … until`), fetched with `getTransaction` and
 * decoded the same way. Backfilled events arrive after live ones of the same period; ingestion de-duplicates
 * and orders by `eventKey` and `at` anyway, since several feeds interleave.
 */
export class SolanaLogsFeed implements LaunchFeed {
  readonly name: string;
  private readonly rec: FeedStatsRecorder;
  private readonly socket: ReconnectingWebSocket;
  private readonly rpc: SolanaRpcClient;
  private readonly seen: BoundedMap<string, true>;
  private readonly backfillOpts: BackfillOptions;
  private batcher: EventBatcher | null = null;
  private requestId = 0;
  private subscription: { requestId: number; id: number | null } | null = null;
  private everSubscribed = false;
  private pendingGap: { gap: ReturnType<FeedStatsRecorder['openGap']>; until: string | null } | null = null;
  private slotCursor = { slot: -1, lastOfSlot: null as string | null, anchor: null as string | null };
  private backfills: Promise<void> = Promise.resolve();
  private stopped = false;
  private droppedEvents = 0;
  private readonly backfillStats = { runs: 0, transactions: 0, events: 0, incomplete: 0 };

  constructor(private readonly o: SolanaLogsFeedOptions) {
    this.name = o.name ?? 'solana-logs';
    this.rec = new FeedStatsRecorder(this.name, o.logger);
    this.seen = new BoundedMap(o.recentSignatures ?? 50_000);
    this.rpc = o.rpc ?? createSolanaRpcClient(o.rpcUrl, { timeoutMs: o.rpcTimeoutMs, commitment: o.commitment });
    this.backfillOpts = { pageSize: 1000, maxSignatures: 20_000, maxAttempts: 5, retry: { baseMs: 500, maxMs: 10_000 }, ...o.backfill };
    this.socket = new ReconnectingWebSocket(
      {
        url: o.wsUrl,
        logger: o.logger,
        backoff: o.backoff ?? { baseMs: 500, maxMs: 30_000 },
        pingIntervalMs: o.pingIntervalMs ?? 30_000,
        connectTimeoutMs: o.connectTimeoutMs ?? 10_000,
        maxFrameBytes: 4 * 1024 * 1024,
      },
      { opened: (send) => this.subscribe(send), message: (t) => this.onFrame(t), lost: (at, reason) => this.onLost(at, reason) },
    );
  }

  start(sink: (events: LaunchEvent[]) => Promise<void>): void {
    if (this.batcher) throw new Error(`${this.name} already started`);
    this.batcher = createWebsocketFeedBatcher(sink, this.o, this.rec, (n) => (this.droppedEvents += n));
    if (this.o.resumeAfter) this.pendingGap = { gap: this.rec.openGap(new Date()), until: this.o.resumeAfter };
    this.socket.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.socket.stop();
    this.rec.connected(false);
    // Together: a backfill waiting for buffer room is released by the batcher's stop.
    await Promise.all([this.backfills, this.batcher?.stop()]);
  }

  stats(): SolanaLogsFeedStats {
    return { ...this.rec.snapshot(), droppedEvents: this.droppedEvents, backfill: { ...this.backfillStats } };
  }

  /** Resolves once every event received or backfilled so far has been delivered. */
  async flushed(): Promise<void> {
    await this.backfills;
    await this.batcher?.flush();
  }

  private subscribe(send: (text: string) => boolean): void {
    this.subscription = { requestId: ++this.requestId, id: null };
    const params = [{ mentions: [this.o.decoder.programId] }, { commitment: this.o.commitment ?? 'confirmed' }];
    send(JSON.stringify({ jsonrpc: '2.0', id: this.subscription.requestId, method: 'logsSubscribe', params }));
  }

  private onLost(at: Date, reason: string): void {
    this.rec.connected(false);
    this.subscription = null;
    // Before the first subscription nothing was being followed yet, and one outage is one gap however many
    // reconnect attempts it takes.
    if (!this.everSubscribed || this.pendingGap) return;
    this.o.logger.warn({ feed: this.name, reason }, 'feed disconnected');
    this.pendingGap = { gap: this.rec.openGap(at), until: this.slotCursor.anchor ?? this.slotCursor.lastOfSlot };
  }

  private onFrame(text: string): void {
    this.rec.frame();
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return this.rec.bad('not JSON', text);
    }
    const n = notification.safeParse(msg);
    if (n.success) {
      const { params } = n.data;
      // Notifications of a subscription from before a reconnect can still be in flight.
      if (params.subscription !== this.subscription?.id) return;
      const { value, context } = params.result;
      const tx: TransactionLogs = { signature: value.signature, slot: context.slot, err: value.err ?? null, logs: value.logs, blockTime: null };
      this.advanceSlotCursor(context.slot, value.signature);
      this.batcher?.push(this.decode(tx));
      return;
    }
    const r = reply.safeParse(msg);
    if (r.success && r.data.id === this.subscription?.requestId) return this.onSubscribed(r.data.result);
    const e = errorReply.safeParse(msg);
    if (e.success && e.data.id === this.subscription?.requestId) {
      this.rec.bad(`logsSubscribe refused: ${e.data.error.code} ${e.data.error.message}`);
      return this.socket.restart('subscription refused');
    }
    this.rec.bad('unexpected frame shape', text);
  }

  private onSubscribed(id: number): void {
    this.subscription = { requestId: this.subscription!.requestId, id };
    this.rec.connected(true);
    this.socket.healthy();
    if (this.everSubscribed) this.rec.reconnected();
    this.everSubscribed = true;
    const pending = this.pendingGap;
    if (!pending) return;
    this.pendingGap = null;
    this.rec.closeGap(pending.gap, new Date());
    this.backfills = this.backfills.then(() => this.backfill(pending.until, pending.gap.from));
  }

  /**
   * The backfill anchor is the last signature of the slot before the newest one seen: notifications of one
   * slot need not arrive in ledger order, so anchoring on the very last one could skip an earlier transaction
   * of its slot that had not been notified yet. Re-listed transactions are skipped through `seen`.
   */
  private advanceSlotCursor(slot: number, signature: string): void {
    const c = this.slotCursor;
    if (slot > c.slot) {
      c.anchor = c.lastOfSlot ?? c.anchor;
      c.slot = slot;
    }
    if (slot === c.slot) c.lastOfSlot = signature;
  }

  private decode(tx: TransactionLogs): LaunchEvent[] {
    if (this.seen.has(tx.signature)) return [];
    this.seen.set(tx.signature, true);
    const d = this.o.decoder.decodeTransaction(tx, { source: this.name, receivedAt: new Date() });
    if (d.errors.length > 0) this.rec.bad(d.errors.join('; '), tx.signature);
    if (d.logsTruncated) this.o.logger.warn({ feed: this.name, signature: tx.signature }, 'transaction logs truncated: later events missing');
    return d.events;
  }

  private async backfill(until: string | null, gapFrom: Date): Promise<void> {
    if (this.stopped) return;
    const log = this.o.logger.child({ feed: this.name, gapFrom });
    if (!until) {
      this.backfillStats.incomplete++;
      return log.warn('no transaction seen before the gap: nothing to backfill from');
    }
    this.backfillStats.runs++;
    const stopped = () => this.stopped;
    try {
      const list = await listSignaturesSince(this.rpc, this.o.decoder.programId, until, this.backfillOpts, log, stopped);
      if (!list.complete) {
        this.backfillStats.incomplete++;
        log.warn({ listed: list.signatures.length }, 'gap longer than the backfill limit: its oldest part stays missing');
      }
      let missing = 0;
      let fetched = 0;
      for (const s of list.signatures) {
        if (this.stopped) return;
        // Failed transactions carry no events; seen ones arrived live.
        if (s.err !== null || this.seen.has(s.signature)) continue;
        const tx = await withRetry(() => this.rpc.getTransactionLogs(s.signature), this.backfillOpts, log, stopped);
        if (!tx) {
          missing++;
          continue;
        }
        const events = this.decode(tx);
        fetched++;
        this.backfillStats.transactions++;
        this.backfillStats.events += events.length;
        await this.batcher?.pushWhenRoom(events);
      }
      if (missing > 0) this.backfillStats.incomplete++;
      log.info({ listed: list.signatures.length, fetched, missing }, 'gap backfilled');
    } catch (e) {
      this.backfillStats.incomplete++;
      log.error({ err: (e as Error).message }, 'backfill failed: the gap stays open for this feed');
    }
  }
}
