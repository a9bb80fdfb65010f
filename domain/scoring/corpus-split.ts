import { runSteps, sortInPieces, type Steps } from './stepwise';

/**
 * The time split behind honest calibration: the k-NN index is built from the earlier rows and the
 * calibrator is fitted on the later slice, scored against that earlier index. A row is never in both, and
 * calibration always looks forward in time, as live scoring does. (Leave-one-out on the anchor service's
 * own index overstated live precision by ~40 points.)
 *
 * "Earlier" is by observation time (when the features were taken: creation + age), not resolution time.
 * Resolution time is label-dependent: a graduate resolves minutes after launch, a dud 24 h later. Sorted by
 * it, the latest slice of any corpus is the last day's duds with none of their graduated contemporaries
 * (measured on the simulator: the 30% calibration slice of a 36 h corpus held 0 graduates of 333, so
 * every score collapsed to ~0 and forward AUC was 0.5).
 */
export type TimedRow = { mint: string; observedAt: Date };

export type CorpusSplit<R> = { indexRows: R[]; calibrationRows: R[] };

/**
 * Sorts by (observedAt, mint) and puts the last `calibrationShare` of rows in the calibration slice. When
 * that slice would hold fewer than `minCalibrationSamples` rows (or leave no index), there is no
 * calibration slice: every row goes to the index and the caller falls back to the smoothed k-NN rate.
 */
export function splitCorpus<R extends TimedRow>(rows: readonly R[], calibrationShare: number, minCalibrationSamples: number): CorpusSplit<R> {
  return runSteps(splitCorpusSteps(rows, calibrationShare, minCalibrationSamples));
}

/** `splitCorpus`, sorting in pieces so a refit at 1M rows never holds the event loop for the whole sort. */
export function* splitCorpusSteps<R extends TimedRow>(rows: readonly R[], calibrationShare: number, minCalibrationSamples: number): Steps<CorpusSplit<R>> {
  if (!(calibrationShare > 0 && calibrationShare < 1)) throw new RangeError(`calibrationShare must be inside (0, 1), got ${calibrationShare}`);
  const sorted = yield* sortInPieces(rows, byObservation);
  const nCal = Math.ceil(sorted.length * calibrationShare);
  if (nCal < Math.max(1, minCalibrationSamples) || nCal >= sorted.length) return { indexRows: sorted, calibrationRows: [] };
  return { indexRows: sorted.slice(0, sorted.length - nCal), calibrationRows: sorted.slice(sorted.length - nCal) };
}

const byObservation = (a: TimedRow, b: TimedRow) => a.observedAt.getTime() - b.observedAt.getTime() || (a.mint < b.mint ? -1 : a.mint > b.mint ? 1 : 0);
