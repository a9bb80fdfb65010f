import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LaunchEvent, TradeEvent } from '../../../domain/launch/launch-events';
import { createLogger } from '../../../platform/logger';
import { ReplayFeed, formatReplayLine, parseReplayLine, writeReplayFile } from '../../../ingest/replay/replay-feed';

const logger = createLogger('silent', 'replay-test');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'replay-'));
const T0 = Date.parse('2025-01-23T10:00:00Z');

const trade = (i: number, offsetMs: number): TradeEvent => ({
  kind: 'trade',
  signature: `sig${i}`,
  ordinal: 0,
  slot: 1000 + i,
  at: new Date(T0 + offsetMs),
  source: 'simulator',
  mint: 'MintA',
  trader: `trader${i}`,
  isBuy: i % 2 === 0,
  solLamports: 1_000_000 * (i + 1),
  tokensRaw: 35_000_000_000 * (i + 1),
  vSolLamports: 30_000_000_000 + i,
  vTokensRaw: 1_073_000_000_000_000 - i,
});

type Delivery = { atMs: number; events: LaunchEvent[] };
async function replay(file: string, opts: { speed?: number; rebase?: boolean; sink?: (e: LaunchEvent[]) => Promise<void> }) {
  const deliveries: Delivery[] = [];
  const feed = new ReplayFeed({ filePath: file, logger, speed: opts.speed, rebase: opts.rebase, batch: { maxEvents: 100, maxDelayMs: 5 } });
  const start = Date.now();
  feed.start(async (events) => {
    deliveries.push({ atMs: Date.now() - start, events });
    await opts.sink?.(events);
  });
  await feed.done();
  return { deliveries, start, feed, events: deliveries.flatMap((d) => d.events) };
}

describe('replay feed', () => {
  const file = path.join(dir, 'three.jsonl');
  beforeAll(() => writeReplayFile(file, [trade(0, 0), trade(1, 200), trade(2, 600)]));

  it('writes the documented format: one {t, event} object per line, at as ISO', () => {
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).t)).toEqual([0, 200, 600]);
    expect(JSON.parse(lines[1]!).event.at).toBe('2025-01-23T10:00:00.200Z');
    expect(parseReplayLine(lines[2]!)).toEqual({ t: 600, event: trade(2, 600) });
  });

  it('keeps relative timing at speed 2 and re-bases `at` to the replay start', async () => {
    const { deliveries, start, events } = await replay(file, { speed: 2 });
    expect(events.map((e) => e.signature)).toEqual(['sig0', 'sig1', 'sig2']);
    const due = [0, 100, 300];
    // Never early; and the whole file is played before real time (speed 1) would have reached its last event.
    // No upper bound per event: a loaded machine delays timers, which says nothing about the feed.
    expect(deliveries).toHaveLength(3);
    deliveries.forEach((d, i) => expect(d.atMs).toBeGreaterThanOrEqual(due[i]! - 2));
    expect(deliveries[2]!.atMs).toBeLessThan(600);
    // at' = feed start + (at − first at) / speed: the spacing exactly, the feed's start between our clock read and
    // the first delivery (how long that is depends on the machine's load, not on the feed).
    expect(events.map((e) => e.at.getTime() - events[0]!.at.getTime())).toEqual(due);
    expect(events[0]!.at.getTime()).toBeGreaterThanOrEqual(start);
    expect(events[0]!.at.getTime()).toBeLessThanOrEqual(start + deliveries[0]!.atMs);
    expect(events.every((e) => e.source === 'replay')).toBe(true);
  });

  it('delivers as fast as possible at speed 0, keeping the recorded spacing of `at`', async () => {
    const t = Date.now();
    const { events } = await replay(file, { speed: 0 });
    // Faster than the recording's own 600 ms (speed 1 would wait them out); a tighter bound would time the machine.
    expect(Date.now() - t).toBeLessThan(600);
    expect(events.map((e) => e.at.getTime() - events[0]!.at.getTime())).toEqual([0, 200, 600]);
  });

  it('keeps recorded times when re-basing is off', async () => {
    const { events } = await replay(file, { speed: 0, rebase: false });
    expect(events.map((e) => e.at.toISOString())).toEqual(['2025-01-23T10:00:00.000Z', '2025-01-23T10:00:00.200Z', '2025-01-23T10:00:00.600Z']);
  });

  it('counts bad lines, skips blank ones, and still delivers the good ones', async () => {
    const mixed = path.join(dir, 'mixed.jsonl');
    const good = [0, 1, 2].map((i) => formatReplayLine(i, trade(i, i)));
    const badTrade = formatReplayLine(3, trade(3, 3)).replace('"isBuy":false', '"isBuy":"no"');
    fs.writeFileSync(mixed, [good[0], '', '{"t":1,"event":', good[1], '{"t":-5,"event":{}}', badTrade, '\r', good[2]].join('\n'));
    const { events, feed } = await replay(mixed, { speed: 0 });
    expect(events.map((e) => e.signature)).toEqual(['sig0', 'sig1', 'sig2']);
    expect(feed.stats()).toMatchObject({ framesReceived: 6, badFrames: 3, eventsEmitted: 3, connected: false });
  });

  it('waits for the sink: never two batches at once', async () => {
    const many = path.join(dir, 'many.jsonl');
    await writeReplayFile(
      many,
      Array.from({ length: 500 }, (_, i) => trade(i, i)),
    );
    let inFlight = 0;
    let maxInFlight = 0;
    const { events, deliveries } = await replay(many, {
      speed: 0,
      sink: async () => {
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        await new Promise((r) => setTimeout(r, 2));
        inFlight--;
      },
    });
    expect(events).toHaveLength(500);
    expect(maxInFlight).toBe(1);
    expect(Math.max(...deliveries.map((d) => d.events.length))).toBeLessThanOrEqual(100);
  });

  it('stops mid-replay', async () => {
    const slow = path.join(dir, 'slow.jsonl');
    await writeReplayFile(slow, [trade(0, 0), trade(1, 10_000)]);
    const got: LaunchEvent[] = [];
    const feed = new ReplayFeed({ filePath: slow, logger, speed: 1 });
    feed.start(async (e) => void got.push(...e));
    await new Promise((r) => setTimeout(r, 50));
    const t = Date.now();
    await feed.stop();
    expect(Date.now() - t).toBeLessThan(500);
    expect(got.map((e) => e.signature)).toEqual(['sig0']);
  });

  it('refuses to write events out of time order, and a bad speed', async () => {
    await expect(writeReplayFile(path.join(dir, 'bad.jsonl'), [trade(0, 100), trade(1, 0)])).rejects.toThrow(/time order/);
    expect(() => new ReplayFeed({ filePath: file, logger, speed: -1 })).toThrow(/speed/);
  });
});
