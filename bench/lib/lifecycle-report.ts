import type { Sample } from './lifecycle-sampler';
import { quantiles } from './process-stats';
import type { KnexDb } from '../../db/knex-handle';

export type Lateness = { bucket: number; n: number; p50: number; p99: number; max: number }[];

/**
 * Lateness of each score of the mints created in [from, to): when the scoring activity wrote its prediction
 * minus when it was due (created_at + bucket), in seconds; and how many of those mints lack a score.
 */
export async function scoreLateness(
  db: KnexDb,
  from: number,
  to: number,
  buckets: readonly number[],
): Promise<{ lateness: Lateness; mints: number; missing: number }> {
  const range = [new Date(from), new Date(to)];
  const rows = (
    await db.raw(
      `SELECT p.age_bucket, extract(epoch FROM p.predicted_at - (m.created_at + make_interval(secs => p.age_bucket)))::float AS late
         FROM predictions p JOIN mints m USING (mint) WHERE m.source = 'bench' AND m.created_at >= ? AND m.created_at < ?`,
      range,
    )
  ).rows as { age_bucket: number; late: number }[];
  const counts = (
    await db.raw(
      `SELECT count(*)::int AS mints, count(*) FILTER (WHERE (SELECT count(*) FROM predictions p WHERE p.mint = m.mint) < ?)::int AS missing
         FROM mints m WHERE m.source = 'bench' AND m.created_at >= ? AND m.created_at < ?`,
      [buckets.length, ...range],
    )
  ).rows[0] as { mints: number; missing: number };
  const lateness = buckets.map((bucket) => {
    const xs = rows.filter((r) => r.age_bucket === bucket).map((r) => r.late);
    return { bucket, n: xs.length, p50: quantiles(xs, 0.5), p99: quantiles(xs, 0.99), max: xs.length ? Math.max(...xs) : NaN };
  });
  return { lateness, ...counts };
}

/** Least-squares slope and intercept of y over x. */
export function linearFit(xs: number[], ys: number[]): { slope: number; intercept: number } {
  const n = xs.length;
  if (n < 2) return { slope: NaN, intercept: NaN };
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  return sxx === 0 ? { slope: NaN, intercept: my } : { slope: sxy / sxx, intercept: my - (sxy / sxx) * mx };
}

/** The sample nearest to an instant. */
export function sampleAt(samples: Sample[], at: number): Sample {
  return samples.reduce((best, s) => (Math.abs(s.at - at) < Math.abs(best.at - at) ? s : best), samples[0]!);
}

/** CPU cores a process group used on average between two instants. */
export function coresBetween(samples: Sample[], group: string, from: number, to: number): number {
  const [a, b] = [sampleAt(samples, from), sampleAt(samples, to)];
  return b.at > a.at ? (b.cpu[group]! - a.cpu[group]!) / ((b.at - a.at) / 1000) : NaN;
}

/** The time series, one row about every `everyS` seconds: launches, open lifecycles, RSS and CPU per group. */
export function printSeries(samples: Sample[], groups: string[], t0: number, everyS: number) {
  console.log(`\n| t s | launched | open (visibility) | ${groups.map((g) => `${g} RSS MiB`).join(' | ')} | ${groups.map((g) => `${g} CPU %`).join(' | ')} |`);
  console.log(`|${'---|'.repeat(3 + groups.length * 2)}`);
  let last: Sample | undefined;
  for (const s of samples) {
    if (last && s.at - last.at < everyS * 1000 && s !== samples[samples.length - 1]) continue;
    const cpu = groups.map((g) => (last ? ((100 * (s.cpu[g]! - last.cpu[g]!)) / ((s.at - last.at) / 1000)).toFixed(0) : '–'));
    console.log(
      `| ${Math.round((s.at - t0) / 1000)} | ${s.launched} | ${s.open ?? 'n/a'} | ${groups.map((g) => s.rss[g]!.toFixed(0)).join(' | ')} | ${cpu.join(' | ')} |`,
    );
    last = s;
  }
}
