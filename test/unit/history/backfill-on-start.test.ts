import { onStartBackfill, onStartState } from '../../../domain/history/backfill-on-start';
import { backfillChunks } from '../../../domain/history/backfill-range';

describe('the first start backfill range', () => {
  const nowMs = Date.parse('2026-11-24T11:07:42.500Z');

  it('is the last N hours before now minus the lag, its end cut to the minute, named by its range', () => {
    const b = onStartBackfill({ hours: 24, nowMs, lagS: 900, chunkS: 3600 })!;
    expect(new Date(b.toMs).toISOString()).toBe('2026-11-24T10:52:00.000Z');
    expect(new Date(b.fromMs).toISOString()).toBe('2026-11-23T10:52:00.000Z');
    expect(b.rangeId).toBe('history-backfill:2026-11-23T10:52:00Z..2026-11-24T10:52:00Z');
    expect(b.chunks).toBe(24);
    expect(b.chunks).toBe(backfillChunks(b.fromMs, b.toMs, 3600).length);
    expect(onStartBackfill({ hours: 1, nowMs, lagS: 0, chunkS: 7 * 86_400 })!.chunks).toBe(1);
  });

  it('is the same range for starts within the same minute, and none when turned off', () => {
    const a = onStartBackfill({ hours: 6, nowMs, lagS: 900, chunkS: 3600 })!;
    expect(onStartBackfill({ hours: 6, nowMs: nowMs + 15_000, lagS: 900, chunkS: 3600 })!.rangeId).toBe(a.rangeId);
    expect(onStartBackfill({ hours: 0, nowMs, lagS: 900, chunkS: 3600 })).toBeNull();
  });

  it('is done once every chunk is complete', () => {
    expect(onStartState(24, 0)).toBe('in_progress');
    expect(onStartState(24, 23)).toBe('in_progress');
    expect(onStartState(24, 24)).toBe('done');
  });
});
