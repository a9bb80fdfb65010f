import { BIN_COUNT, nearestRank, RELATIVE_ACCURACY } from '../../../domain/signals/log-histogram';
import { RollingThreshold, THRESHOLD_RULES, thresholdQuantile } from '../../../domain/signals/rolling-threshold';
import type { ThresholdState } from '../../../domain/signals/threshold-state';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';

const T0 = Date.parse('2026-11-01T00:00:00Z');
const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const within1pct = (got: number | null, exact: number) => {
  expect(got).not.toBeNull();
  expect(Math.abs(got! - exact) / exact).toBeLessThanOrEqual(RELATIVE_ACCURACY + 1e-12);
};
const exactQuantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[nearestRank(q, xs.length) - 1]!;

describe('rolling threshold', () => {
  it('gives no threshold below 30 samples, then the warm-up P95', () => {
    const t = new RollingThreshold();
    const xs: number[] = [];
    for (let k = 1; k <= 29; k++) {
      t.add(k, T0 + k * 1000);
      xs.push(k);
    }
    expect(t.threshold(T0 + 30_000)).toMatchObject({ value: null, samples: 29, quantile: 0.95, kind: 'p95_warmup', warming: true });
    t.add(30, T0 + 30_000);
    xs.push(30);
    const r = t.threshold(T0 + 30_000);
    expect(r.samples).toBe(THRESHOLD_RULES.minSamples);
    within1pct(r.value, exactQuantile(xs, 0.95)); // the 29th of 30: 29
    expect(r.historyS).toBe(29);
  });

  it('holds P95 for 18 h, ramps linearly to P90 at 24 h, and reports the quantile it used', () => {
    expect(thresholdQuantile(0)).toBe(0.95);
    expect(thresholdQuantile(18 * 3600)).toBe(0.95);
    expect(thresholdQuantile(21 * 3600)).toBeCloseTo(0.925, 12);
    expect(thresholdQuantile(24 * 3600 - 1)).toBeGreaterThan(0.9);
    expect(thresholdQuantile(24 * 3600)).toBe(0.9);
    expect(thresholdQuantile(100 * 3600)).toBe(0.9);

    // 1..1000 every minute: the window's quantiles are known exactly.
    const t = new RollingThreshold();
    const at = (ms: number) => {
      for (let k = 1; k <= 1000; k++) t.add(k, ms);
    };
    for (let ms = T0; ms <= T0 + 25 * HOUR; ms += 10 * MIN) {
      at(ms);
      const r = t.threshold(ms);
      within1pct(r.value, nearestRank(r.quantile, 1000)); // every minute holds the same 1..1000
      expect(r.kind).toBe(r.historyS < 86_400 ? 'p95_warmup' : 'p90_24h');
      expect(r.warming).toBe(r.historyS < 86_400);
      if (ms - T0 <= 18 * HOUR) expect(r.quantile).toBe(0.95);
      if (ms - T0 >= DAY) expect(r.quantile).toBe(0.9);
    }
  });

  it('slides bucket by bucket: a sample counts for between 23 h 50 min and 24 h', () => {
    const t = new RollingThreshold();
    const bucket = T0 + 7 * 10 * MIN; // a bucket start
    for (let k = 0; k < 40; k++) t.add(100, bucket + 5 * MIN);
    for (let k = 0; k < 40; k++) t.add(1, bucket + 30 * MIN);
    expect(t.threshold(bucket + DAY - 1).samples).toBe(80);
    within1pct(t.threshold(bucket + DAY - 1).value, 100);
    const r = t.threshold(bucket + DAY);
    expect(r.samples).toBe(40);
    within1pct(r.value, 1);
    // A sample that arrives after its bucket has left the window is not counted.
    expect(t.add(5, bucket + 5 * MIN)).toBe(false);
    expect(t.threshold(bucket + DAY).samples).toBe(40);
    // Time never goes back: an earlier reading time reads the current window.
    expect(t.threshold(bucket).samples).toBe(40);
  });

  it('restarts its warm-up only after a whole window without a sample', () => {
    const t = new RollingThreshold();
    for (let k = 0; k < 50; k++) t.add(k, T0 + k * MIN);
    expect(t.threshold(T0 + 23 * HOUR).historyS).toBe(23 * 3600);
    expect(t.threshold(T0 + 23 * HOUR).value).not.toBeNull();
    // Nothing for a day: the old samples have left and the history with them.
    expect(t.threshold(T0 + 49 * MIN + DAY + 20 * MIN)).toMatchObject({ samples: 0, historyS: 0, value: null, warming: true });
    t.add(3, T0 + 2 * DAY);
    expect(t.threshold(T0 + 2 * DAY + HOUR).historyS).toBe(3600);
  });

  it('survives a restart: serialize → JSON → deserialize reads and evolves exactly as the original', () => {
    const rnd = new SeededRandom(5);
    const score = () => (rnd.chance(0.7) ? 0 : rnd.int(1, 8) * rnd.uniform(1, 12) * rnd.uniform(5 / 6, 1));
    const a = new RollingThreshold();
    for (let ms = T0; ms < T0 + 30 * HOUR; ms += 20_000) for (let k = 0; k < 5; k++) a.add(score(), ms + k);
    a.sampledThroughMs = T0 + 30 * HOUR - 1;
    const json = JSON.stringify(a.serialize());
    const b = RollingThreshold.deserialize(JSON.parse(json));
    expect(b.sampledThroughMs).toBe(a.sampledThroughMs);
    expect(b.threshold(T0 + 30 * HOUR)).toEqual(a.threshold(T0 + 30 * HOUR));
    expect(JSON.stringify(b.serialize())).toBe(JSON.stringify(a.serialize()));
    for (let ms = T0 + 30 * HOUR; ms < T0 + 40 * HOUR; ms += 60_000) {
      const s = score();
      a.add(s, ms);
      b.add(s, ms);
      expect(b.threshold(ms)).toEqual(a.threshold(ms));
    }
  });

  it('merges per-writer partials into exactly the single-writer threshold', () => {
    const rnd = new SeededRandom(9);
    const one = new RollingThreshold();
    const parts = [new RollingThreshold(), new RollingThreshold(), new RollingThreshold()];
    for (let ms = T0; ms < T0 + 27 * HOUR; ms += 15_000) {
      for (let k = 0; k < 4; k++) {
        const s = rnd.chance(0.5) ? 0 : rnd.lognormal(4, 1.2);
        one.add(s, ms);
        parts[rnd.int(0, 3)]!.add(s, ms);
      }
    }
    // The writers stopped at different times; the merged view reads at the latest clock.
    parts[0]!.advance(T0 + 27 * HOUR + 5 * MIN);
    const merged = RollingThreshold.merge(parts.map((p) => JSON.parse(JSON.stringify(p.serialize())) as ThresholdState));
    const at = T0 + 27 * HOUR + 5 * MIN;
    expect(merged.threshold(at)).toEqual(one.threshold(at));
    expect(merged.sampledThroughMs).toBeNull();
    expect(RollingThreshold.merge([]).threshold(at)).toMatchObject({ value: null, samples: 0 });
  });

  it('stays bounded after 30 simulated hours at high rates, whatever the rate', () => {
    const sizeAfter = (perTick: number, seed: number) => {
      const rnd = new SeededRandom(seed);
      const t = new RollingThreshold();
      let added = 0;
      for (let ms = T0; ms < T0 + 30 * HOUR; ms += 10_000) {
        for (let k = 0; k < perTick; k++) {
          // Realistic composites, plus a few wild values anywhere in the sketch's range and beyond it.
          const s = rnd.chance(0.01) ? Math.pow(10, rnd.uniform(-6, 8)) : rnd.chance(0.8) ? 0 : rnd.int(1, 11) * rnd.uniform(1, 15) * rnd.uniform(5 / 6, 1);
          t.add(s, ms + k);
          added++;
        }
      }
      return { t, added, json: JSON.stringify(t.serialize()).length, ...t.size() };
    };
    const low = sizeAfter(10, 1);
    const high = sizeAfter(200, 2); // 20/s sampled, 2.2M samples
    expect(high.added).toBeGreaterThan(2_000_000);
    for (const s of [low, high]) {
      expect(s.buckets).toBeLessThanOrEqual(THRESHOLD_RULES.windowS / THRESHOLD_RULES.bucketS);
      expect(s.bins).toBeLessThanOrEqual(s.buckets * (BIN_COUNT + 1));
      expect(s.json).toBeLessThan(1_000_000);
    }
    // Twenty times the traffic does not make twenty times the state: bins fill, counts just grow.
    expect(high.bins).toBeLessThan(4 * low.bins);
    expect(high.json).toBeLessThan(4 * low.json);
    expect(high.t.threshold(T0 + 30 * HOUR).samples).toBeLessThanOrEqual(200 * 6 * 60 * 24);
  });

  it('refuses malformed scores and states it cannot trust', () => {
    const t = new RollingThreshold();
    expect(() => t.add(-1, T0)).toThrow(RangeError);
    expect(() => t.add(NaN, T0)).toThrow(RangeError);
    expect(() => t.add(1, NaN)).toThrow(RangeError);
    t.add(2, T0);
    const good = t.serialize();
    const bad: unknown[] = [
      null,
      'x',
      { ...good, version: 2 },
      { ...good, relativeAccuracy: 0.02 },
      { ...good, bucketS: 300 },
      { ...good, clockMs: 'soon' },
      { ...good, buckets: [{ ...good.buckets[0], zero: -1 }] },
      { ...good, buckets: [{ ...good.buckets[0], runs: [[0, 1.5]] }] },
      { ...good, buckets: [{ ...good.buckets[0], runs: [[0]] }] },
      {
        ...good,
        buckets: [
          {
            ...good.buckets[0],
            runs: [
              [5, 1, 1],
              [6, 1],
            ],
          },
        ],
      },
      { ...good, buckets: [{ ...good.buckets[0], startMs: T0 + 1 }] },
      { ...good, buckets: [{ ...good.buckets[0], runs: [[100_000, 1]] }] },
      { ...good, buckets: [good.buckets[0], good.buckets[0]] },
      { ...good, historyStartMs: null },
    ];
    for (const s of bad) expect(() => RollingThreshold.deserialize(s)).toThrow(TypeError);
    expect(RollingThreshold.deserialize(good).threshold(T0).samples).toBe(1);
  });
});
