import { buildHeadline, headlineReadFrom, type HeadlineCall } from '../../../domain/accuracy/accuracy-headline';

const DAY = 86_400_000;
const now = new Date('2026-11-24T12:00:00Z');
const call = (at: string, graduated: boolean, runwayS: number | null = graduated ? 40 : null, mint = at): HeadlineCall => ({
  mint,
  predictedAt: new Date(at),
  graduated,
  runwayS,
});

describe('accuracy headline (the published CLI’s figures)', () => {
  it('counts calls of the last 30 days and over the lifetime, warming below 30', () => {
    const calls = [
      ...Array.from({ length: 30 }, (_, i) => call(new Date(now.getTime() - (i + 1) * 3_600_000).toISOString(), i % 3 === 0, i % 3 === 0 ? 10 + i : null)),
      call('2026-10-01T00:00:00Z', true, 100), // older than 30 days: lifetime only
    ];
    const h = buildHeadline({ computedAt: now, monthsFrom: new Date(0), calls, carried: [] });
    expect(h.last_30d).toEqual({ status: 'ok', hit_rate: 10 / 30, n_resolved: 30 });
    expect(h.lifetime).toEqual({ status: 'ok', hit_rate: 11 / 31, n_resolved: 31 });
    // Runways of the 10 graduated calls of the last 30 days: 10, 13, …, 37 s.
    expect(h.time_to_grad).toEqual({ status: 'warming', n_grads: 10, p50_s: 24, under_30s_pct: 7 / 10 });
    expect(h.trajectory).toEqual([
      { month: '2026-10', hit_rate: 1, n: 1 },
      { month: '2026-11', hit_rate: 10 / 30, n: 30 },
    ]);
  });

  it('has no figures without calls', () => {
    const h = buildHeadline({ computedAt: now, monthsFrom: new Date(0), calls: [], carried: [] });
    expect(h).toEqual({
      min_prob: 0.7,
      last_30d: { status: 'warming', hit_rate: null, n_resolved: 0 },
      lifetime: { status: 'warming', hit_rate: null, n_resolved: 0 },
      time_to_grad: { status: 'warming', n_grads: 0, p50_s: null, under_30s_pct: null },
      trajectory: [],
    });
  });

  it('reads only months that are not final, and carries the final ones from the previous report', () => {
    // Without a previous tally: everything. Then: the month of (now − 2 days), or an older one the previous
    // report had not closed yet, and always the last 30 days.
    expect(headlineReadFrom(now, undefined).monthsFrom).toEqual(new Date(0));
    const prev = { computedAt: new Date(now.getTime() - 300_000), trajectory: [] };
    expect(headlineReadFrom(now, prev)).toEqual({ monthsFrom: new Date('2026-11-01T00:00:00Z'), callsFrom: new Date(now.getTime() - 30 * DAY) });
    expect(headlineReadFrom(new Date('2026-12-01T12:00:00Z'), prev).monthsFrom).toEqual(new Date('2026-11-01T00:00:00Z'));
    expect(headlineReadFrom(now, { ...prev, computedAt: new Date('2026-08-15T00:00:00Z') }).monthsFrom).toEqual(new Date('2026-08-01T00:00:00Z'));

    const carried = [
      { month: '2026-09', hit_rate: 0.25, n: 40 },
      { month: '2026-10', hit_rate: 0.5, n: 20 },
      { month: '2026-11', hit_rate: 0, n: 99 }, // not final when it was written: recomputed
    ];
    const calls = [call('2026-10-28T00:00:00Z', true), call('2026-11-02T00:00:00Z', true), call('2026-11-03T00:00:00Z', false)];
    const h = buildHeadline({ computedAt: now, monthsFrom: new Date('2026-11-01T00:00:00Z'), calls, carried });
    expect(h.trajectory).toEqual([...carried.slice(0, 2), { month: '2026-11', hit_rate: 0.5, n: 2 }]);
    expect(h.lifetime).toEqual({ status: 'ok', hit_rate: (10 + 10 + 1) / 62, n_resolved: 62 });
    // The October call read for the last 30 days counts there, not twice in the lifetime.
    expect(h.last_30d.n_resolved).toBe(3);
  });
});
