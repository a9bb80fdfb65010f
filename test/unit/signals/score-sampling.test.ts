import { compositeScore } from '../../../domain/signals/composite-score';
import { RollingThreshold } from '../../../domain/signals/rolling-threshold';
import { dueSampleAges, SAMPLES_PER_MINT, sampleRefresh, type SampledMint } from '../../../domain/signals/score-sampling';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';

const T0 = Date.parse('2026-11-01T00:00:00Z');

describe('score sampling: one sample per (mint, 2 s tick of age) inside the window', () => {
  it('lists the ticks in (watermark, now], capped at the window', () => {
    expect(SAMPLES_PER_MINT).toBe(60);
    expect(dueSampleAges(T0, null, T0 + 5_000)).toEqual([0, 2, 4]);
    expect(dueSampleAges(T0, T0 + 4_000, T0 + 9_999)).toEqual([6, 8]); // the tick at the watermark was taken
    expect(dueSampleAges(T0, T0 + 3_999, T0 + 4_000)).toEqual([4]);
    expect(dueSampleAges(T0, T0 + 110_000, T0 + 500_000)).toEqual([112, 114, 116, 118]);
    expect(dueSampleAges(T0, T0 + 118_000, T0 + 500_000)).toEqual([]);
    expect(dueSampleAges(T0 + 10_000, T0, T0 + 9_000)).toEqual([]); // not created yet
    expect(dueSampleAges(T0 + 10_000, T0, T0 + 10_000)).toEqual([0]);
  });

  it('gives every mint exactly 60 samples whatever the refresh cadence or burst of refreshes', () => {
    const rnd = new SeededRandom(4);
    const mints = Array.from({ length: 40 }, (_, k) => ({ createdAtMs: T0 + k * 3_700, smartMoneyIn: k % 3, maxMult: 1 + (k % 5) }));
    const regular = new RollingThreshold();
    for (let at = T0; at <= T0 + 400_000; at += 2_000) sampleRefresh(regular, mints, at);
    const irregular = new RollingThreshold();
    let total = 0;
    for (let at = T0; at <= T0 + 400_000; at += rnd.int(1, 7_000)) {
      total += sampleRefresh(irregular, mints, at);
      // Refreshes in quick succession (a burst of trades re-evaluating mints) add nothing within a tick.
      for (let k = 1; k <= 5; k++) total += sampleRefresh(irregular, mints, at + k);
    }
    total += sampleRefresh(irregular, mints, T0 + 400_000 + 7_000);
    expect(total).toBe(40 * SAMPLES_PER_MINT);
    expect(irregular.threshold(T0 + 500_000)).toEqual(regular.threshold(T0 + 500_000));
    // The sample ages use the tick's own freshness: a mint's last tick is at age 118 s.
    const one = new RollingThreshold();
    sampleRefresh(one, [{ createdAtMs: T0, smartMoneyIn: 1, maxMult: 1 }], T0 + 130_000);
    expect(one.threshold(T0 + 130_000).samples).toBe(60);
  });

  it('neither repeats nor skips ticks across a restart, because the watermark is persisted with the counts', () => {
    const mints: SampledMint[] = Array.from({ length: 30 }, (_, k) => ({ createdAtMs: T0 + k * 5_000, smartMoneyIn: 1 + (k % 4), maxMult: 2 }));
    const straight = new RollingThreshold();
    for (let at = T0; at <= T0 + 300_000; at += 5_000) sampleRefresh(straight, mints, at);

    let restarted = new RollingThreshold();
    for (let at = T0; at <= T0 + 300_000; at += 5_000) {
      sampleRefresh(restarted, mints, at);
      if (at === T0 + 95_000) restarted = RollingThreshold.deserialize(JSON.parse(JSON.stringify(restarted.serialize())));
    }
    expect(restarted.threshold(T0 + 300_000)).toEqual(straight.threshold(T0 + 300_000));
    expect(straight.threshold(T0 + 300_000).samples).toBe(30 * SAMPLES_PER_MINT);
  });

  it('scores each tick at its own age with the mint state passed in', () => {
    const t = new RollingThreshold();
    // One refresh at age 79 s takes the 40 ticks at ages 0..78, each with its own freshness.
    sampleRefresh(t, [{ createdAtMs: T0, smartMoneyIn: 2, maxMult: 3 }], T0 + 79_000);
    const r = t.threshold(T0 + 79_000);
    expect(r.samples).toBe(40);
    const scores = Array.from({ length: 40 }, (_, k) => compositeScore({ smartMoneyIn: 2, maxMult: 3, ageS: 2 * k }).score).sort((a, b) => a - b);
    const p95 = scores[37]!; // nearest rank 38 of 40: the tick at age 4
    expect(Math.abs(r.value! / p95 - 1)).toBeLessThanOrEqual(0.01);
    // Scoring every tick at the refresh's age would have read 12% lower.
    expect(r.value! / compositeScore({ smartMoneyIn: 2, maxMult: 3, ageS: 79 }).score).toBeGreaterThan(1.1);
  });

  it('ignores a refresh that does not move past the watermark', () => {
    const t = new RollingThreshold();
    const m = [{ createdAtMs: T0, smartMoneyIn: 1, maxMult: 1 }];
    expect(sampleRefresh(t, m, T0 + 10_000)).toBe(6);
    expect(sampleRefresh(t, m, T0 + 10_000)).toBe(0);
    expect(sampleRefresh(t, m, T0 + 9_000)).toBe(0);
    expect(t.sampledThroughMs).toBe(T0 + 10_000);
  });
});
