import type { FirehoseLogEvent, FirehoseLogStore } from '../../db/firehose/firehose-log-store';
import { eventFrame, gapFrame } from '../../domain/firehose/firehose-protocol';
import { frameFacts } from '../../domain/firehose/firehose-topics';
import { FrameRing, type RingFrame } from '../../domain/firehose/frame-ring';
import type { Logger } from '../../platform/logger';

/** A connection as the hub sees it: it takes frames above its cursor once it is live (caught up). */
export type Subscriber = { live: boolean; cursor: number; deliver(frame: RingFrame): void; gap(bytes: Buffer, resumeSeq: number): void };

const PAGE = 1000;
const SENDS_PER_SLICE = 256;

export const frameOf = (e: FirehoseLogEvent): RingFrame => ({
  seq: e.seq,
  bytes: Buffer.from(eventFrame(e)),
  ownerKeyId: e.ownerKeyId,
  facts: frameFacts(e.kind, JSON.parse(e.payloadJson) as Record<string, unknown>),
});

/**
 * This API process's reader of the firehose log: woken by NOTIFY (and a poll behind it), it reads the events after
 * its head in seq order, keeps the newest in a ring, and hands each frame, serialised once, to every live
 * subscriber. Every process reads the same log, so a client may reconnect to any of them with its last seq.
 */
export function createFirehoseHub(d: { store: FirehoseLogStore; log: Logger; ringFrames: number }) {
  let head = 0;
  let ring = new FrameRing(d.ringFrames, 0);
  const subs = new Set<Subscriber>();
  let pumping: Promise<void> | undefined;
  let again = false;
  let lastErrorLogAt = 0;

  async function drain(): Promise<void> {
    for (;;) {
      const { events, prunedThrough } = await d.store.readAfter(head, PAGE);
      if (prunedThrough > head) {
        // This process fell behind the retention window (a long database outage): what it missed is gone for everyone.
        const resumeSeq = events.length ? events[0]!.seq - 1 : prunedThrough;
        const bytes = Buffer.from(gapFrame({ afterSeq: head, resumeSeq, reason: 'retention' }));
        head = resumeSeq;
        ring = new FrameRing(d.ringFrames, head);
        for (const s of subs) if (s.live) s.gap(bytes, head);
      }
      let sends = 0;
      for (const e of events) {
        const frame = frameOf(e);
        ring.push(frame);
        head = e.seq;
        for (const s of subs) if (s.live && frame.seq > s.cursor) s.deliver(frame);
        // A page to every client is up to a million sends: let sockets flush (and requests run) between slices.
        sends += subs.size;
        if (sends >= SENDS_PER_SLICE) {
          sends = 0;
          await new Promise((r) => setImmediate(r));
        }
      }
      if (events.length < PAGE) return;
    }
  }

  return {
    async start(): Promise<void> {
      head = await d.store.head();
      ring = new FrameRing(d.ringFrames, head);
    },

    /** Reads what was appended since the last read; calls made while one runs fold into one more read after it. */
    pump(): Promise<void> {
      if (pumping) {
        again = true;
        return pumping;
      }
      pumping = (async () => {
        try {
          do {
            again = false;
            await drain();
          } while (again);
        } catch (err) {
          // The poll retries; one line per minute is enough to say the database is away.
          if (Date.now() - lastErrorLogAt > 60_000) {
            lastErrorLogAt = Date.now();
            d.log.warn({ err: { message: (err as Error).message } }, 'firehose: reading the log failed; retrying');
          }
        } finally {
          pumping = undefined;
        }
      })();
      return pumping;
    },

    get head() {
      return head;
    },
    get ring() {
      return ring;
    },
    subscribe(s: Subscriber) {
      subs.add(s);
    },
    unsubscribe(s: Subscriber) {
      subs.delete(s);
    },
  };
}
export type FirehoseHub = ReturnType<typeof createFirehoseHub>;
