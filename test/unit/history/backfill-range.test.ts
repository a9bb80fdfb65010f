import {
  backfillChunkId,
  backfillChunks,
  backfillRangeId,
  chunkFraction,
  classifyPage,
  nextUtcDayMs,
  parseBackfillRange,
} from '../../../domain/history/backfill-range';

const T = Date.parse('2026-11-20T00:00:00Z');
const sig = (n: number) => `sig${String(n).padStart(40, '0')}`;

describe('backfill ranges', () => {
  it('splits a range into chunks newest first, the oldest one shorter, with ids from the times', () => {
    const c = backfillChunks(T, T + 2.5 * 3_600_000, 3600);
    expect(c).toEqual([
      { fromMs: T + 1.5 * 3_600_000, toMs: T + 2.5 * 3_600_000 },
      { fromMs: T + 0.5 * 3_600_000, toMs: T + 1.5 * 3_600_000 },
      { fromMs: T, toMs: T + 0.5 * 3_600_000 },
    ]);
    expect(backfillRangeId(T, T + 3_600_000)).toBe('history-backfill:2026-11-20T00:00:00Z..2026-11-20T01:00:00Z');
    expect(backfillChunkId(c[2]!)).toBe('history-backfill-chunk:2026-11-20T00:00:00Z..2026-11-20T00:30:00Z');
    expect(() => backfillChunks(T, T, 60)).toThrow(RangeError);
  });

  it('parses <from>..<to> with dates or times, and holds `to` back from now', () => {
    const now = Date.parse('2026-11-24T06:00:00Z');
    expect(parseBackfillRange('2026-11-20..2026-11-21', now, 900)).toEqual({ fromMs: T, toMs: T + 86_400_000 });
    expect(parseBackfillRange('2026-11-24T00:00Z..2026-11-25', now, 900)).toEqual({ fromMs: Date.parse('2026-11-24T00:00Z'), toMs: now - 900_000 });
    expect(() => parseBackfillRange('2026-11-24T05:50Z..2026-11-25', now, 900)).toThrow(/empty backfill range/);
    expect(() => parseBackfillRange('yesterday', now, 0)).toThrow(/<from>\.\.<to>/);
    expect(() => parseBackfillRange('x..2026-11-21', now, 0)).toThrow(/not a time/);
  });

  it('classifies a page: fetches the successful transactions inside the chunk, pages on past newer ones, stops below it', () => {
    const c = { fromMs: T + 10_000, toMs: T + 20_000 };
    const at = (s: number) => (T + s * 1000) / 1000;
    const page = [
      { signature: sig(6), err: null, blockTime: at(25) }, // newer than the chunk: the newer chunk's
      { signature: sig(5), err: null, blockTime: at(19) },
      { signature: sig(4), err: { InstructionError: [0, 'Custom'] }, blockTime: at(15) }, // failed: no events
      { signature: sig(3), err: null, blockTime: null }, // cannot be placed in time
      { signature: sig(2), err: null, blockTime: at(10) },
      { signature: sig(1), err: null, blockTime: at(9) }, // the older chunk's
    ];
    expect(classifyPage(page, c, 6, null)).toEqual({ fetch: [sig(5), sig(2)], cursor: sig(2), done: true, oldestMs: T + 10_000 });
    // A full page inside the chunk goes on from its last signature; a short one is the ledger's start.
    expect(classifyPage(page.slice(1, 3), c, 2, sig(6))).toEqual({ fetch: [sig(5)], cursor: sig(4), done: false, oldestMs: T + 15_000 });
    expect(classifyPage(page.slice(1, 3), c, 3, sig(6)).done).toBe(true);
    // A page wholly below the chunk keeps the cursor where it was.
    expect(classifyPage(page.slice(5), c, 1, sig(2))).toEqual({ fetch: [], cursor: sig(2), done: true, oldestMs: null });
  });

  it('knows when the daily cap opens again and how much of a chunk is read', () => {
    expect(nextUtcDayMs(Date.parse('2026-11-24T23:59:59Z'))).toBe(Date.parse('2026-11-25T00:00:00Z'));
    const c = { fromMs: T, toMs: T + 100_000 };
    expect(chunkFraction(c, null, false)).toBe(0);
    expect(chunkFraction(c, T + 75_000, false)).toBeCloseTo(0.25);
    expect(chunkFraction(c, T + 75_000, true)).toBe(1);
  });
});
