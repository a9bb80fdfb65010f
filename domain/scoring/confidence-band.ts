/**
 * The confidence cells predictions are grouped by when calibration is reported (per age × cell with its n).
 * Narrow at the bottom, where almost every mint lands, wider above. The last cell is closed: it holds 1.
 */
export type ConfidenceBand = { lo: number; hi: number };

export const CONFIDENCE_BANDS: readonly ConfidenceBand[] = [
  { lo: 0, hi: 0.05 },
  { lo: 0.05, hi: 0.1 },
  { lo: 0.1, hi: 0.25 },
  { lo: 0.25, hi: 0.5 },
  { lo: 0.5, hi: 0.7 },
  { lo: 0.7, hi: 0.9 },
  { lo: 0.9, hi: 1 },
];

/** The cell a probability falls in: [lo, hi), except the last, [0.9, 1]. */
export function confidenceBand(prob: number): ConfidenceBand {
  if (!(prob >= 0 && prob <= 1)) throw new RangeError(`probability out of [0, 1]: ${prob}`);
  return CONFIDENCE_BANDS.find((b) => prob < b.hi) ?? CONFIDENCE_BANDS[CONFIDENCE_BANDS.length - 1]!;
}
