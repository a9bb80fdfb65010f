/**
 * The launchpad's market temperature: how busy the last hour was relative to our own last 35 days.
 * Each component's value over the trailing hour is ranked against the same quantity measured over every complete
 * hour of the history; the index is the weighted mean of those percentiles scaled to 0..100, so 50 means
 * "a typical hour of the last 35 days" whatever the absolute level of the launchpad is.
 */
export const HISTORY_DAYS = 35;
export const WINDOW_LABEL = '1h';

/** What one window of market activity measured (an hourly rollup row, or the trailing hour). */
export type WindowActivity = {
  launches: number;
  graduations: number;
  trades: number;
  volumeLamports: number;
  uniqueBuyers: number;
  vsolInflowLamports: number;
};

export type ComponentName = 'launch_rate' | 'graduation_rate' | 'trade_volume_sol' | 'unique_buyers' | 'vsol_inflow';

/**
 * Weights sum to 1. Launch rate and volume carry most: they are what a sniper's hit rate moves with. Graduations
 * are rarer (noisier per hour) and net inflow is volume's signed cousin, so they weigh less.
 */
export const COMPONENTS: readonly { name: ComponentName; weight: number; value: (w: WindowActivity) => number }[] = [
  { name: 'launch_rate', weight: 0.25, value: (w) => w.launches },
  { name: 'graduation_rate', weight: 0.2, value: (w) => w.graduations },
  { name: 'trade_volume_sol', weight: 0.25, value: (w) => w.volumeLamports / 1e9 },
  { name: 'unique_buyers', weight: 0.15, value: (w) => w.uniqueBuyers },
  { name: 'vsol_inflow', weight: 0.15, value: (w) => w.vsolInflowLamports / 1e9 },
];

export type TemperatureLabel = 'cold' | 'cool' | 'normal' | 'warm' | 'hot';

export type Conditions = {
  temperature: number;
  label: TemperatureLabel;
  historyHours: number;
  components: { name: ComponentName; value: number; percentile: number; weight: number; window: string }[];
};

/**
 * Mid-rank percentile of `value` within `history`: the share of history below it plus half the share equal to it,
 * so a value equal to every past hour sits at 0.5 rather than at 0 or 1. Undefined on an empty history.
 */
export function percentileRank(value: number, history: readonly number[]): number {
  if (history.length === 0) throw new Error('percentileRank needs a non-empty history');
  let below = 0;
  let equal = 0;
  for (const h of history) {
    if (h < value) below++;
    else if (h === value) equal++;
  }
  return (below + equal / 2) / history.length;
}

export function temperatureLabel(t: number): TemperatureLabel {
  if (t < 20) return 'cold';
  if (t < 40) return 'cool';
  if (t < 60) return 'normal';
  if (t < 80) return 'warm';
  return 'hot';
}

/** Too little history ranks noise: below this many complete hours the index is "warming" and not published. */
export function computeConditions(
  current: WindowActivity,
  history: readonly WindowActivity[],
  minHistoryHours: number,
): Conditions | { warming: true; historyHours: number } {
  if (history.length < Math.max(1, minHistoryHours)) return { warming: true, historyHours: history.length };
  const components = COMPONENTS.map((c) => ({
    name: c.name,
    value: c.value(current),
    percentile: percentileRank(c.value(current), history.map(c.value)),
    weight: c.weight,
    window: WINDOW_LABEL,
  }));
  const temperature = 100 * components.reduce((s, c) => s + c.weight * c.percentile, 0);
  // Rounded so that float noise never pushes a label across a boundary or the value past 100.
  const t = Math.min(100, Math.max(0, Math.round(temperature * 100) / 100));
  return { temperature: t, label: temperatureLabel(t), historyHours: history.length, components };
}

const HOUR_MS = 3_600_000;
export const floorHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;

/**
 * The complete hours the history may use at `nowMs`: from 35 days back (or the first complete hour after our
 * first observed event, whichever is later — hours before we were watching are unknown, not quiet) up to the
 * hour before the current one.
 */
export function historyHours(nowMs: number, firstEventMs: number | null): number[] {
  if (firstEventMs === null) return [];
  const end = floorHour(nowMs); // exclusive: the current hour is still running
  const start = Math.max(end - HISTORY_DAYS * 24 * HOUR_MS, floorHour(firstEventMs) + HOUR_MS);
  const out: number[] = [];
  for (let h = start; h < end; h += HOUR_MS) out.push(h);
  return out;
}
