/**
 * A creator's track record, from its RESOLVED launches only (a launch still inside its 24 h horizon says
 * nothing yet), labelled with one label version. Definitions (v1):
 * - n_launches: the creator's resolved launches other than the mint shown.
 * - rate_5x: share of those whose peak price within 24 h reached 5 × the launch price (the creator's own
 *   launch is the reference here, unlike runner odds which are measured from the call).
 * - runner_creator: at least RUNNER_CREATOR_MIN_5X such launches and rate_5x ≥ RUNNER_CREATOR_MIN_RATE, so a
 *   serial launcher with one lucky coin in fifty is not a "runner". Null with no resolved launch (unknown).
 */
export const CREATOR_5X = 5;
export const RUNNER_CREATOR_MIN_5X = 1;
export const RUNNER_CREATOR_MIN_RATE = 0.2;

/** Aggregates kept in the `creators` table, recomputed at every resolution of one of the creator's mints. */
export type CreatorAggregate = { nResolved: number; n5x: number; nGraduated: number; nRugged: number };
/** The shown mint's own resolved outcome, when it has one: it is not its own track record. */
export type OwnOutcome = { reached5x: boolean };

export type CreatorRecord = { nLaunches: number; rate5x: number | null; runnerCreator: boolean | null };

export function creatorRecord(agg: CreatorAggregate | null, own: OwnOutcome | null = null): CreatorRecord {
  const n = Math.max(0, (agg?.nResolved ?? 0) - (own ? 1 : 0));
  const n5x = Math.max(0, (agg?.n5x ?? 0) - (own?.reached5x ? 1 : 0));
  if (n === 0) return { nLaunches: 0, rate5x: null, runnerCreator: null };
  const rate5x = Math.min(1, n5x / n);
  return { nLaunches: n, rate5x, runnerCreator: n5x >= RUNNER_CREATOR_MIN_5X && rate5x >= RUNNER_CREATOR_MIN_RATE };
}
