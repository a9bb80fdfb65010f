import { cursorAt, feedLowerBound, feedPage, MAX_CURSOR, nextCursor } from '../../../domain/signals/cursor';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';

const NOW = Date.parse('2026-11-02T12:00:00Z');

describe('signal cursor helpers', () => {
  it('assigns microsecond timestamps made strictly increasing', () => {
    expect(cursorAt(NOW)).toBe(NOW * 1000);
    expect(nextCursor(null, NOW)).toBe(NOW * 1000);
    expect(nextCursor(NOW * 1000, NOW)).toBe(NOW * 1000 + 1); // same microsecond
    expect(nextCursor(NOW * 1000 + 5, NOW - 2_000)).toBe(NOW * 1000 + 6); // a clock that stepped back
    expect(nextCursor(NOW * 1000, NOW + 1)).toBe((NOW + 1) * 1000);
    expect(() => nextCursor(MAX_CURSOR, NOW)).toThrow(RangeError);
    // Timestamps stay exact JSON numbers for two more centuries.
    expect(cursorAt(Date.parse('2255-01-01T00:00:00Z'))).toBeLessThan(MAX_CURSOR);
  });

  it('reads since=0 as the last hour', () => {
    expect(feedLowerBound(0, NOW)).toBe((NOW - 3_600_000) * 1000);
    expect(feedLowerBound(123, NOW)).toBe(123);
    expect(() => feedLowerBound(-1, NOW)).toThrow(RangeError);
    expect(() => feedLowerBound(1.5, NOW)).toThrow(RangeError);
  });

  it('pages: the last row’s cursor, or since when empty, and has_more when cut at limit', () => {
    const rows = [{ cursor: 10 }, { cursor: 11 }, { cursor: 15 }];
    expect(feedPage(7, rows, 2)).toEqual({ signals: rows.slice(0, 2), cursor: 11, hasMore: true });
    expect(feedPage(7, rows, 3)).toEqual({ signals: rows, cursor: 15, hasMore: false });
    expect(feedPage(7, [], 100)).toEqual({ signals: [], cursor: 7, hasMore: false });
    expect(() => feedPage(0, [{ cursor: 2 }, { cursor: 2 }], 5)).toThrow(RangeError);
  });

  it('lets a poller that passes back each cursor see every signal once, whatever the limits and timing', () => {
    const rnd = new SeededRandom(3);
    const log: { cursor: number; id: number }[] = [];
    let last: number | null = null;
    let clock = NOW;
    const seen: number[] = [];
    let since = 0;
    for (let step = 0; step < 5_000; step++) {
      // Deliveries in bursts, some in the same millisecond, the clock sometimes stepping back.
      for (let k = rnd.int(0, 4); k > 0; k--) {
        last = nextCursor(last, clock);
        log.push({ cursor: last, id: log.length });
      }
      clock += rnd.int(-3, 40);
      if (rnd.chance(0.5)) {
        const limit = rnd.int(1, 6);
        const lower = feedLowerBound(since, clock);
        const page = feedPage(since, log.filter((r) => r.cursor > lower).slice(0, limit + 1), limit);
        seen.push(...page.signals.map((r) => r.id));
        since = page.cursor;
      }
    }
    for (;;) {
      const page = feedPage(since, log.filter((r) => r.cursor > since).slice(0, 101), 100);
      seen.push(...page.signals.map((r) => r.id));
      since = page.cursor;
      if (!page.hasMore) break;
    }
    expect(seen).toEqual(log.map((r) => r.id));
  });
});
