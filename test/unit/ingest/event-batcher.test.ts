import type { CompleteEvent, LaunchEvent } from '../../../domain/launch/launch-events';
import { EventBatcher, type BatcherOptions } from '../../../ingest/feed-runtime/event-batcher';
import { backoffDelayMs } from '../../../platform/net/backoff';
import { createLogger } from '../../../platform/logger';

const ev = (i: number): CompleteEvent => ({
  kind: 'complete',
  signature: `s${i}`,
  ordinal: 0,
  slot: null,
  at: new Date(1_000_000 + i * 1000),
  source: 't',
  mint: `m${i}`,
});
const opts: BatcherOptions = { maxBatch: 10, maxDelayMs: 20, maxBuffered: 50, retry: { baseMs: 5, maxMs: 10 }, drainTimeoutMs: 500 };

function setup(sink: (e: LaunchEvent[]) => Promise<void>, o: Partial<BatcherOptions> = {}) {
  const log = { delivered: 0, gaps: [] as { from: Date; to?: Date; dropped?: number }[] };
  const b = new EventBatcher(
    sink,
    { ...opts, ...o },
    {
      logger: createLogger('silent', 'batcher-test'),
      delivered: (e) => (log.delivered += e.length),
      overflowStarted: (from) => void log.gaps.push({ from }),
      overflowEnded: (to, dropped) => Object.assign(log.gaps[log.gaps.length - 1]!, { to, dropped }),
    },
  );
  return { b, log };
}

describe('event batcher', () => {
  it('flushes a full batch at once and a partial one after maxDelayMs', async () => {
    const batches: number[] = [];
    const { b } = setup(async (e) => void batches.push(e.length));
    b.push(Array.from({ length: 13 }, (_, i) => ev(i)));
    await new Promise((r) => setTimeout(r, 5));
    expect(batches).toEqual([10]);
    await b.flush();
    expect(batches).toEqual([10, 3]);
  });

  it('delivers one batch at a time and drops, as one reported gap, what overflows while the sink is stuck', async () => {
    let release = () => {};
    let inFlight = 0;
    let maxInFlight = 0;
    const delivered: string[] = [];
    const { b, log } = setup(async (e) => {
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      if (delivered.length === 0) await new Promise<void>((r) => (release = r));
      delivered.push(...e.map((x) => x.signature));
      inFlight--;
    });
    b.push(Array.from({ length: 10 }, (_, i) => ev(i))); // in flight, stuck
    await new Promise((r) => setTimeout(r, 5));
    for (let i = 10; i < 80; i++) b.push([ev(i)]); // 50 fit, 20 dropped
    expect(b.buffered).toBe(50);
    release();
    await new Promise((r) => setTimeout(r, 5));
    b.push([ev(80)]); // room again: the overflow period ends
    await b.flush();
    expect(maxInFlight).toBe(1);
    expect(delivered).toHaveLength(61);
    expect(log.gaps).toEqual([{ from: ev(60).at, to: ev(79).at, dropped: 20 }]);
  });

  it('retries a rejected batch and loses nothing', async () => {
    let failures = 2;
    const got: string[] = [];
    const { b, log } = setup(async (e) => {
      if (failures-- > 0) throw new Error('db down');
      got.push(...e.map((x) => x.signature));
    });
    b.push([ev(1), ev(2)]);
    await b.flush();
    expect(got).toEqual(['s1', 's2']);
    expect(log.delivered).toBe(2);
  });

  it('makes a waiting producer wait for room instead of dropping', async () => {
    const got: string[] = [];
    const { b, log } = setup(
      async (e) => {
        await new Promise((r) => setTimeout(r, 1));
        got.push(...e.map((x) => x.signature));
      },
      { maxBuffered: 5 },
    );
    await b.pushWhenRoom(Array.from({ length: 40 }, (_, i) => ev(i)));
    await b.flush();
    expect(got).toHaveLength(40);
    expect(log.gaps).toEqual([]);
  });

  it('gives up at stop after the drain timeout when the sink never succeeds', async () => {
    const { b } = setup(async () => Promise.reject(new Error('down')), { drainTimeoutMs: 50 });
    b.push([ev(1)]);
    const t = Date.now();
    await b.stop();
    expect(Date.now() - t).toBeLessThan(300);
    expect(b.buffered).toBe(0);
  });
});

describe('backoff', () => {
  it('grows exponentially to the cap, with jitter within [half, full]', () => {
    const o = { baseMs: 100, maxMs: 1000 };
    expect([0, 1, 2, 3, 10].map((a) => backoffDelayMs(a, o, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([0, 1, 2, 3, 10].map((a) => backoffDelayMs(a, o, () => 1))).toEqual([100, 200, 400, 800, 1000]);
  });
});
