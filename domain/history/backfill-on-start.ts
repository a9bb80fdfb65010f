import { backfillChunks, backfillRangeId } from './backfill-range';

/** The range a deployment backfills on its first start, fixed then and stored (a restart reuses it). */
export type OnStartBackfill = { rangeId: string; fromMs: number; toMs: number; hours: number; chunkS: number; chunks: number };

/**
 * The last `hours` of history before now − `lagS` (the live feed's share), its end cut to the minute so the range
 * (and its workflow id) reads cleanly; null when turned off (0 hours, which the settings also give without a backfill
 * node configured).
 */
export function onStartBackfill(i: { hours: number; nowMs: number; lagS: number; chunkS: number }): OnStartBackfill | null {
  if (!(i.hours > 0)) return null;
  const toMs = Math.floor((i.nowMs - i.lagS * 1000) / 60_000) * 60_000;
  const fromMs = toMs - i.hours * 3_600_000;
  return { rangeId: backfillRangeId(fromMs, toMs), fromMs, toMs, hours: i.hours, chunkS: i.chunkS, chunks: backfillChunks(fromMs, toMs, i.chunkS).length };
}

/** `done` once every chunk of the range is complete; until then the range is still to be (re)started. */
export const onStartState = (chunks: number, chunksDone: number): 'in_progress' | 'done' => (chunksDone >= chunks ? 'done' : 'in_progress');
