import { walkForward, type BacktestRow, type WalkForwardResult } from '../../../domain/backtest/walk-forward';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';
import { corpusRow, v1Features } from '../../support/launch-corpus';

const T0 = Date.parse('2026-10-01T00:00:00Z');
const MIN = 60_000;
const HORIZON = 24 * 60 * MIN;

/** One mint observed every minute; its label resolves a day later, as in production. */
const row = (i: number, vSol: number, graduated: boolean): BacktestRow => ({
  ...corpusRow(i, v1Features(vSol), graduated, { t0: T0, stepMs: MIN, mint: `m${String(i).padStart(6, '0')}` }),
  peakMultFromCall: graduated ? 4 : 1.2,
});

const run = (rows: BacktestRow[], refitEveryS = 3600, corpusLimit = 100_000, minCorpus = 1): WalkForwardResult => {
  const steps = walkForward(rows, { ageBucket: 30, refitEveryS, corpusLimit, minCorpus });
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value;
};

describe('walk-forward evaluation', () => {
  it('scores each row with a model fitted only on rows resolved before its window began', () => {
    // Three days of mints. Every label is the opposite of what the first day taught: if the evaluation peeked
    // at labels it could not know yet, predictions on day 3 would follow day 2's flipped pattern.
    const rng = new SeededRandom(3);
    const rows = Array.from({ length: 3 * 24 * 60 }, (_, i) => {
      const v = rng.uniform(30, 60);
      const day = Math.floor(i / (24 * 60));
      return row(i, v, day === 1 ? v < 45 : v >= 45);
    });
    const result = run(rows);
    // Day 1 has no resolved corpus at all; days 2 and 3 are scored.
    expect(result.warmup).toBe(24 * 60);
    expect(result.predictions).toHaveLength(2 * 24 * 60);
    for (const p of result.predictions) {
      const windowStart = T0 + Math.floor((p.observedAt.getTime() - T0) / 3_600_000) * 3_600_000;
      const knowable = rows.filter((r) => r.resolvedAt.getTime() <= windowStart).length;
      expect(p.corpusSize).toBe(knowable);
    }
    // The first hour of day 3 still only knows day 1's pattern (high vSol graduates)...
    const firstHourDay3 = result.predictions.filter((p) => p.observedAt.getTime() < T0 + 2 * HORIZON + 3_600_000 && p.observedAt.getTime() >= T0 + 2 * HORIZON);
    const hi = firstHourDay3.filter((p) => rows[Number(p.mint.slice(1))]!.features.vSolSol >= 50);
    const lo = firstHourDay3.filter((p) => rows[Number(p.mint.slice(1))]!.features.vSolSol < 40);
    const mean = (xs: { prob: number }[]) => xs.reduce((s, x) => s + x.prob, 0) / xs.length;
    expect(mean(hi)).toBeGreaterThan(mean(lo));
    // ...while day 2, scored entirely from day 1, got day 2's flipped labels wrong: never peeked.
    const day2 = result.predictions.filter((p) => p.observedAt.getTime() < T0 + 2 * HORIZON);
    const day2Graduates = day2.filter((p) => p.graduated);
    const day2Duds = day2.filter((p) => !p.graduated);
    expect(mean(day2Graduates)).toBeLessThan(mean(day2Duds));
  });

  it('refits once per window that has new labels, and reuses the model otherwise', () => {
    const rows = Array.from({ length: 2 * 24 * 60 }, (_, i) => row(i, 30 + (i % 30), i % 30 > 25));
    const hourly = run(rows, 3600);
    // Day 2 has 24 hourly windows, each with new labels from day 1 behind it.
    expect(hourly.fits).toBe(24);
    const versions = new Set(hourly.predictions.map((p) => p.modelVersion));
    expect(versions.size).toBe(24);
    // Daily windows: day 2 is one window, fitted once, when only the first mint's label was known.
    const daily = run(rows, 86_400);
    expect(daily.fits).toBe(1);
    expect(new Set(daily.predictions.map((p) => p.corpusSize))).toEqual(new Set([1]));
  });

  it('caps the corpus at the newest rows by observation time, and counts warm-up below the minimum', () => {
    const rows = Array.from({ length: 2 * 24 * 60 }, (_, i) => row(i, 30 + (i % 30), i % 30 > 25));
    const capped = run(rows, 3600, 500);
    const sizes = capped.predictions.map((p) => p.corpusSize);
    expect(Math.max(...sizes)).toBe(500);
    expect(new Set(sizes).size).toBe(10); // 1, 61, …, 481, then 500 from the 10th window on
    // With at least 600 labels required, day 2's first ten hourly windows (1, 61, …, 541 known) are warm-up too.
    const strict = run(rows, 3600, 100_000, 600);
    expect(strict.warmup).toBe(24 * 60 + 10 * 60);
    expect(strict.warmup + strict.predictions.length).toBe(rows.length);
    expect(Math.min(...strict.predictions.map((p) => p.corpusSize))).toBe(601);
  });

  it('reports progress per window and handles an empty input', () => {
    const steps = walkForward([row(0, 40, false), row(150, 40, true)], { ageBucket: 30, refitEveryS: 3600, corpusLimit: 10 });
    const seen: number[] = [];
    let r = steps.next();
    for (; !r.done; r = steps.next()) seen.push(r.value.done, r.value.total);
    expect(seen).toEqual([1, 3, 2, 3, 3, 3]);
    expect(r.value).toMatchObject({ predictions: [], warmup: 2, fits: 0 });
    expect(run([])).toMatchObject({ predictions: [], warmup: 0, fits: 0 });
  });

  it('refuses rows of another age and bad settings', () => {
    expect(() => run([{ ...row(0, 40, false), ageBucket: 60 }])).toThrow(RangeError);
    expect(() => run([row(0, 40, false)], 0)).toThrow(RangeError);
    expect(() => run([row(0, 40, false)], 600, 0)).toThrow(RangeError);
  });
});
