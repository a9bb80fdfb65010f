import type { WebSocket } from 'ws';
import type { FirehoseLogStore } from '../../db/firehose/firehose-log-store';
import {
  errorFrame,
  FIREHOSE_CLOSE,
  gapFrame,
  helloFrame,
  parseClientMessage,
  resumePlan,
  subscribedFrame,
  type GapReason,
} from '../../domain/firehose/firehose-protocol';
import { compileSubscription, type Subscription } from '../../domain/firehose/firehose-topics';
import { visibleTo, type RingFrame } from '../../domain/firehose/frame-ring';
import { frameOf, type FirehoseHub, type Subscriber } from './firehose-hub';

export type ConnectionSettings = { retentionS: number; heartbeatS: number; maxBufferedBytes: number };

const PAGE = 1000;

/**
 * One firehose client: the hello, the catch-up from `since` (from the ring, else the log, else a gap frame), then
 * every frame the hub reads. A client whose unsent bytes pass the bound is closed (4408) rather than buffered for.
 * Another key's alert fires are passed over (its cursor moves past them unsent).
 */
export function openConnection(
  ws: WebSocket,
  d: {
    hub: FirehoseHub;
    store: FirehoseLogStore;
    settings: ConnectionSettings;
    keyId: number | undefined;
    subscription: Subscription;
    now: () => Date;
  },
) {
  let closed = false;
  let subscription = d.subscription;
  let topicsMatch = compileSubscription(subscription);
  /** Whether this connection is sent the frame: its key may see it and its subscription asks for it. */
  const wants = (f: RingFrame): boolean => visibleTo(f, d.keyId) && topicsMatch(f.facts);
  const slow = (): boolean => {
    if (ws.bufferedAmount <= d.settings.maxBufferedBytes) return false;
    close(FIREHOSE_CLOSE.slowConsumer, 'slow_consumer');
    return true;
  };
  const send = (bytes: Buffer | string): boolean => {
    if (closed || slow()) return false;
    ws.send(bytes, { binary: false });
    return true;
  };
  const sub: Subscriber = {
    live: false,
    cursor: 0,
    deliver(frame: RingFrame) {
      if (!wants(frame)) sub.cursor = frame.seq;
      else if (send(frame.bytes)) sub.cursor = frame.seq;
    },
    gap(bytes: Buffer, resumeSeq: number) {
      if (send(bytes)) sub.cursor = resumeSeq;
    },
  };
  const close = (code: number, reason: string) => {
    if (closed) return;
    closed = true;
    d.hub.unsubscribe(sub);
    // Nothing more is queued for it; a peer that never answers the close is cut by ws after its 30 s close timeout.
    ws.close(code, reason);
  };
  ws.on('close', () => {
    closed = true;
    d.hub.unsubscribe(sub);
  });

  const sendGap = (afterSeq: number, reason: GapReason) => {
    const resumeSeq = d.hub.head;
    if (send(gapFrame({ afterSeq, resumeSeq, reason }))) sub.cursor = resumeSeq;
  };

  /** Sends what lies between `since` and the hub's head, then turns live; the switch happens with no await between check and set. */
  async function catchUp(since: number) {
    sub.cursor = since;
    // The same answer from every process: a resume below the prune watermark is a gap even where a ring still holds it.
    const w = await d.store.watermarks();
    const plan = resumePlan({ since, ringFloor: d.hub.ring.floor, prunedThrough: w.prunedThrough, lastDrawn: w.lastDrawn, head: d.hub.head });
    if (plan.from === 'gap') sendGap(since, plan.reason);
    while (!closed) {
      if (sub.cursor >= d.hub.head) {
        sub.live = true;
        return;
      }
      if (sub.cursor >= d.hub.ring.floor) {
        const frames = d.hub.ring.after(sub.cursor);
        for (const f of frames) {
          if (wants(f) && !send(f.bytes)) return;
          sub.cursor = f.seq;
        }
        if (!frames.length) sub.cursor = d.hub.head;
        continue;
      }
      // Every event up to the head the hub had read before this statement is visible to it.
      const headAtRead = d.hub.head;
      const { events, prunedThrough } = await d.store.readAfter(sub.cursor, PAGE);
      if (closed) return;
      if (prunedThrough > sub.cursor) {
        sendGap(sub.cursor, 'retention');
        continue;
      }
      for (const e of events) {
        const f = frameOf(e);
        if (wants(f) && !send(f.bytes)) return;
        sub.cursor = e.seq;
      }
      // A short page read everything that existed; the seqs up to headAtRead it did not hold are rolled-back appends.
      if (events.length < PAGE) sub.cursor = Math.max(sub.cursor, headAtRead);
    }
  }

  return {
    sub,
    close,
    send,
    /** Closes it as a slow consumer when its unsent bytes are past the bound (the heartbeat checks it between events). */
    slow,
    get closed() {
      return closed;
    },
    /**
     * A client message: a `subscribe` replaces the subscription at the current cursor, which the answer names, so
     * the frames after it are exactly the new topics' (catch-up included: it reads the cursor and filter at each frame).
     */
    onMessage(text: string) {
      const m = parseClientMessage(text);
      if (!m.ok) {
        send(errorFrame(m.error, m.detail));
        return;
      }
      subscription = m.subscription;
      topicsMatch = compileSubscription(subscription);
      send(subscribedFrame({ seq: sub.cursor, topics: subscription, now: d.now() }));
    },
    async start(since: number | null) {
      d.hub.subscribe(sub);
      send(
        helloFrame({ headSeq: d.hub.head, since, retentionS: d.settings.retentionS, heartbeatS: d.settings.heartbeatS, topics: subscription, now: d.now() }),
      );
      if (since === null) {
        sub.cursor = d.hub.head;
        sub.live = true;
        return;
      }
      await catchUp(since);
    },
  };
}
export type FirehoseConnection = ReturnType<typeof openConnection>;
