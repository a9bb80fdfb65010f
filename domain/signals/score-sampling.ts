import { compositeScore, COMPOSITE_WINDOW_S } from './composite-score';
import type { RollingThreshold } from './rolling-threshold';

/**
 * Which scores enter the threshold's sample: one per (mint, 2 s tick of its age) while the mint is inside the
 * composite window, the ticks at ages 0, 2, …, 118 s. Every mint contributes exactly 60 samples, each at a known
 * age, so the threshold is a quantile over "mint-moments in the window", every launch weighing the same.
 *
 * The alternatives weigh mints unequally:
 * - every evaluation: evaluations follow trades, so busy mints (the ones with smart money) would dominate the
 *   sample and the threshold would rise with trading activity rather than with scores;
 * - one per mint per evaluation tick while it is tracked or visible: a mint kept longer on the list (hot ones
 *   stay, dead ones are hidden) contributes more ticks, biasing the sample toward long-lived mints;
 * - every 10th score (the public service): decimation of the first choice, with the same bias, plus a cap of
 *   50,000 entries that, under load, shortened its 24 h window to whatever the cap held.
 * A tick at a fixed age grid needs no per-mint memory: the sampler keeps one watermark (the time up to which
 * every tick has been sampled) in the threshold state, so a restart neither repeats nor skips ticks before it.
 *
 * A tick's score uses the mint's state as known at the refresh that samples it (at most one refresh interval
 * after the tick) and the tick's own age for freshness.
 */
export const SAMPLE_TICK_S = 2;
/** Ticks per mint: ages 0 … COMPOSITE_WINDOW_S − SAMPLE_TICK_S. */
export const SAMPLES_PER_MINT = Math.ceil(COMPOSITE_WINDOW_S / SAMPLE_TICK_S);

const TICK_MS = SAMPLE_TICK_S * 1000;

/** Ages (s) of a mint's ticks that fall in (sampledThroughMs, atMs]; all ticks up to atMs when there is no watermark. */
export function dueSampleAges(createdAtMs: number, sampledThroughMs: number | null, atMs: number): number[] {
  const from = sampledThroughMs === null ? 0 : Math.max(0, Math.floor((sampledThroughMs - createdAtMs) / TICK_MS) + 1);
  const to = Math.min(SAMPLES_PER_MINT - 1, Math.floor((atMs - createdAtMs) / TICK_MS));
  const ages: number[] = [];
  for (let k = from; k <= to; k++) ages.push(k * SAMPLE_TICK_S);
  return ages;
}

export type SampledMint = { createdAtMs: number; smartMoneyIn: number; maxMult: number };

/**
 * One refresh's sampling: adds every due tick of every given mint, then moves the watermark to `atMs`. The
 * watermark is shared by all mints, so pass every tracked mint, including those that left the window since the
 * last refresh (their last ticks are due): a mint left out loses its ticks up to `atMs`. Cross evaluations
 * between refreshes never sample. Returns the number of samples added.
 */
export function sampleRefresh(threshold: RollingThreshold, mints: Iterable<SampledMint>, atMs: number): number {
  const since = threshold.sampledThroughMs;
  if (since !== null && atMs <= since) return 0;
  let n = 0;
  for (const m of mints) {
    for (const ageS of dueSampleAges(m.createdAtMs, since, atMs)) {
      const { score } = compositeScore({ smartMoneyIn: m.smartMoneyIn, maxMult: m.maxMult, ageS });
      if (threshold.add(score, m.createdAtMs + ageS * 1000)) n++;
    }
  }
  threshold.sampledThroughMs = atMs;
  return n;
}
