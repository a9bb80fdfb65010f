import type { Scored } from './forward-metrics';

/**
 * Lift within virtual-SOL bands: among mints at the same curve position when scored, the graduation rate of those
 * scored at or above x against that of all of them. Virtual SOL alone ranks launches well (a curve further along is
 * closer to completing), so precision pooled over positions can come from the position rather than the score; within
 * a band, a lift above 1 is what the score adds to knowing where the curve stood.
 *
 * Bands in SOL of virtual reserve (the curve starts at 30 and completes near 115), chosen before any data was read.
 */
export const VSOL_BANDS: readonly { lo: number; hi: number | null }[] = [
  { lo: 0, hi: 32 },
  { lo: 32, hi: 36 },
  { lo: 36, hi: 45 },
  { lo: 45, hi: 60 },
  { lo: 60, hi: 80 },
  { lo: 80, hi: null },
];
/** The score levels lift is reported at: the launchpad's base rate is 1–2%, so the low ones carry the counts. */
export const LIFT_THRESHOLDS = [0.05, 0.1, 0.25, 0.5, 0.7] as const;

export type VsolScored = Scored & { vSolSol: number };

export type VsolLiftBand = {
  v_sol_lo: number;
  v_sol_hi: number | null;
  n: number;
  graduated: number;
  base_rate: number | null;
  thresholds: { min_prob: number; n: number; graduated: number; precision: number | null; lift: number | null }[];
};

export function vsolLift(xs: readonly VsolScored[]): VsolLiftBand[] {
  return VSOL_BANDS.map(({ lo, hi }) => {
    const inBand = xs.filter((x) => x.vSolSol >= lo && (hi === null || x.vSolSol < hi));
    const graduated = inBand.filter((x) => x.label).length;
    const base = inBand.length ? graduated / inBand.length : null;
    return {
      v_sol_lo: lo,
      v_sol_hi: hi,
      n: inBand.length,
      graduated,
      base_rate: base,
      thresholds: LIFT_THRESHOLDS.map((t) => {
        const kept = inBand.filter((x) => x.prob >= t);
        const g = kept.filter((x) => x.label).length;
        const precision = kept.length ? g / kept.length : null;
        return { min_prob: t, n: kept.length, graduated: g, precision, lift: precision !== null && base ? precision / base : null };
      }),
    };
  });
}
