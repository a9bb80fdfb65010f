/**
 * The accuracy page's `headline`: the figures the published CLI (`goracle accuracy`) prints, in its shape. A call is
 * a mint's first forward prediction at or above CALL_MIN_PROB (its earliest age bucket there), logged before its
 * outcome resolved; it hits when the mint graduated within the 24 h horizon. Its runway is the time from the call's
 * score (`as_of`) to the graduation.
 *
 * Lifetime figures would mean reading every prediction ever logged at every recompute. Instead each month's tally
 * is kept in the report (`trajectory`) and carried forward once the month is final (every call in it resolved:
 * FINAL_AFTER_MS past its end); each recompute reads only the months that are not final yet, and the last 30 days.
 */
export const CALL_MIN_PROB = 0.7;
/** Below this many resolved calls (or graduations, for the runway) a figure is `warming`. */
export const HEADLINE_MIN_N = 30;
const LAST_DAYS = 30;
const DAY_MS = 86_400_000;
/** Calls are made at most 60 s after creation and resolve 24 h after it: a month is final two days after its end. */
const FINAL_AFTER_MS = 2 * DAY_MS;

export type HeadlineCall = { mint: string; predictedAt: Date; graduated: boolean; runwayS: number | null };
export type TrajectoryMonth = { month: string; hit_rate: number | null; n: number };

const monthOf = (d: Date) => d.toISOString().slice(0, 7);
const monthStart = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));

/**
 * From when the calls must be read: the first month that is not final now, or was not when the previous report
 * was computed (months in between were never tallied as final); from the beginning without a previous tally.
 */
export function headlineReadFrom(now: Date, previous: { computedAt: Date; trajectory: TrajectoryMonth[] } | undefined): { monthsFrom: Date; callsFrom: Date } {
  const notFinal = (d: Date) => monthStart(new Date(d.getTime() - FINAL_AFTER_MS));
  const monthsFrom = previous ? new Date(Math.min(notFinal(now).getTime(), notFinal(previous.computedAt).getTime())) : new Date(0);
  return { monthsFrom, callsFrom: new Date(Math.min(monthsFrom.getTime(), now.getTime() - LAST_DAYS * DAY_MS)) };
}

const rate = (calls: readonly HeadlineCall[]) => (calls.length ? calls.filter((c) => c.graduated).length / calls.length : null);
const status = (n: number) => (n >= HEADLINE_MIN_N ? ('ok' as const) : ('warming' as const));

function median(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * `calls`: every call logged since `monthsFrom` and in the last 30 days (headlineReadFrom), one per mint;
 * `carried`: the previous report's trajectory (its months before `monthsFrom` are final and kept as they are).
 */
export function buildHeadline(i: { computedAt: Date; monthsFrom: Date; calls: readonly HeadlineCall[]; carried: readonly TrajectoryMonth[] }) {
  const last = i.calls.filter((c) => c.predictedAt.getTime() >= i.computedAt.getTime() - LAST_DAYS * DAY_MS);
  const recent = i.calls.filter((c) => c.predictedAt >= i.monthsFrom);
  const byMonth = new Map<string, HeadlineCall[]>();
  for (const c of recent) byMonth.set(monthOf(c.predictedAt), [...(byMonth.get(monthOf(c.predictedAt)) ?? []), c]);
  const trajectory: TrajectoryMonth[] = [
    ...i.carried.filter((m) => m.month < monthOf(i.monthsFrom)),
    ...[...byMonth].map(([month, cs]) => ({ month, hit_rate: rate(cs), n: cs.length })),
  ].sort((a, b) => (a.month < b.month ? -1 : 1));
  const lifetimeN = trajectory.reduce((s, m) => s + m.n, 0);
  // hit_rate × n gives back each month's exact hit count (counts far below 2^53).
  const lifetimeHits = trajectory.reduce((s, m) => s + Math.round((m.hit_rate ?? 0) * m.n), 0);
  const runways = last.filter((c) => c.graduated && c.runwayS !== null).map((c) => Math.max(0, c.runwayS!));
  const p50 = median(runways);
  return {
    min_prob: CALL_MIN_PROB,
    last_30d: { status: status(last.length), hit_rate: rate(last), n_resolved: last.length },
    lifetime: { status: status(lifetimeN), hit_rate: lifetimeN ? lifetimeHits / lifetimeN : null, n_resolved: lifetimeN },
    time_to_grad: {
      status: status(runways.length),
      n_grads: runways.length,
      p50_s: p50 === null ? null : Math.round(p50),
      under_30s_pct: runways.length ? runways.filter((s) => s <= 30).length / runways.length : null,
    },
    trajectory,
  };
}
export type AccuracyHeadline = ReturnType<typeof buildHeadline>;
