import { coresBetween, sampleAt } from './lifecycle-report';
import type { Sample } from './lifecycle-sampler';

export type Windows = {
  /** Before the first launch: the processes' own baseline. */
  before: number;
  /** Filling: from the first launch until the worker has run every fill lifecycle's first task (or scored them). */
  fill: { from: number; to: number; launches: number };
  /** Nothing launched, everything open: what holding them costs. */
  quiet: { from: number; to: number };
  /** The production-like stream, until its last score. */
  probe: { from: number; to: number; launches: number };
};

/**
 * What a day at `dayLaunches` needs, from the measured windows (24 h lifecycles: a day's launches are open at
 * once). Memory: (RSS at the end of the quiet window − RSS before the first launch) ÷ lifecycles held, per
 * process; the worker holds at most `maxCached` of them (its sticky cache), Temporal all of them; read at
 * `dayLaunches` (and for the worker also at the cache size it has now). A line through two points: RSS includes
 * heap the V8 or Go runtime has not given back, so this is an upper bound. CPU: the quiet window's cores scaled
 * linearly from the open count measured to `dayLaunches`, plus the day's average launch rate × CPU per launch in
 * the probe net of the quiet window's cost.
 */
export function printExtrapolation(samples: Sample[], w: Windows, o: { groups: string[]; dayLaunches: number; maxCached: number; openAtQuiet: number }) {
  const dayRate = o.dayLaunches / 86_400;
  const [first, atQuiet] = [sampleAt(samples, w.before), sampleAt(samples, w.quiet.to)];
  const quiet = (g: string) => coresBetween(samples, g, w.quiet.from, w.quiet.to);
  const perLaunch = (g: string, from: number, to: number, launches: number, net: boolean) =>
    ((coresBetween(samples, g, from, to) - (net ? quiet(g) : 0)) * (to - from)) / 1000 / Math.max(1, launches);
  const held = (g: string, open: number) => (g === 'worker' ? Math.min(open, o.maxCached) : open);
  const perHeldMiB = (g: string) => (atQuiet.rss[g]! - first.rss[g]!) / Math.max(1, held(g, o.openAtQuiet));

  console.log(
    `\nmemory with ${o.openAtQuiet} open: ${o.groups.map((g) => `${g} ${atQuiet.rss[g]!.toFixed(0)} MiB (before: ${first.rss[g]!.toFixed(0)})`).join(', ')}; peak ${o.groups.map((g) => `${g} ${Math.max(...samples.map((s) => s.rss[g]!)).toFixed(0)}`).join(', ')} MiB (Postgres sums its processes, counting shared buffers in each)`,
  );
  console.log(
    '\n| process | KiB per lifecycle held (worker: cached) | cores while holding them open (quiet) | CPU ms per launch in the fill | CPU ms per launch in the probe, net of quiet |\n|---|---|---|---|---|',
  );
  for (const g of o.groups) {
    console.log(
      `| ${g} | ${(perHeldMiB(g) * 1024).toFixed(1)} | ${quiet(g).toFixed(3)} | ${(perLaunch(g, w.fill.from, w.fill.to, w.fill.launches, false) * 1000).toFixed(1)} | ${(perLaunch(g, w.probe.from, w.probe.to, w.probe.launches, true) * 1000).toFixed(1)} |`,
    );
  }

  console.log(`\na day at ${o.dayLaunches} launches (24 h lifecycles → about ${o.dayLaunches} open at once; ${dayRate.toFixed(2)} launches/s on average):`);
  let totalCores = 0;
  for (const g of o.groups) {
    const cores =
      quiet(g) * (o.dayLaunches / Math.max(1, o.openAtQuiet)) + dayRate * Math.max(0, perLaunch(g, w.probe.from, w.probe.to, w.probe.launches, true));
    totalCores += cores;
    const at = (n: number) => (first.rss[g]! + perHeldMiB(g) * n).toFixed(0);
    if (g === 'worker') {
      console.log(
        `  worker: ≈ ${at(Math.min(o.maxCached, o.dayLaunches))} MiB with its sticky cache (${o.maxCached} workflows), ≈ ${at(o.dayLaunches)} MiB to keep all ${o.dayLaunches} cached; ≈ ${cores.toFixed(2)} cores`,
      );
    } else if (g === 'temporal') {
      console.log(`  temporal (dev server): ≈ ${at(o.dayLaunches)} MiB; ≈ ${cores.toFixed(2)} cores`);
    } else {
      console.log(`  ${g}: ≈ ${cores.toFixed(2)} cores (its memory is shared buffers and backends, not per lifecycle)`);
    }
  }
  console.log(`  total ≈ ${totalCores.toFixed(2)} cores on average for the day's lifecycles; a burst costs the fill's CPU per launch × its launch rate`);
  console.log(
    "  (method: bench/lib/lifecycle-extrapolation.ts — memory: (RSS after − before) ÷ lifecycles held, times the day's; CPU: quiet cost scaled by open count + launches/s × probe CPU per launch)",
  );
}
