import fs from 'node:fs';
import path from 'node:path';
import { startApiProcess } from './api-under-test';
import type { CeilingRoute } from './ceiling-routes';
import { connectProfiler } from './cpu-profiler';
import { summariseProfile, type FrameTime } from './cpu-profile-summary';
import { runLoad } from './load-process';
import { timeByConcern } from './profile-concerns';

const root = path.resolve(__dirname, '..', '..');

/**
 * CPU profiles of the API's request path, one per route: the API as production runs it plus the inspector, the
 * V8 sampler started after a warm-up and stopped when the route's load ends. Writes `<route>.cpuprofile` (open
 * in Chrome DevTools or speedscope) and prints the top self and inclusive frames and self time by area.
 */
export async function profileRoutes(o: {
  env: Record<string, string>;
  routes: CeilingRoute[];
  durationS: number;
  connections: number;
  outDir: string;
}): Promise<void> {
  fs.mkdirSync(o.outDir, { recursive: true });
  // One serving process: the inspector attaches to the process it starts, which in a cluster would be the primary (idle).
  const env = { ...o.env, API_PROCESSES: '1' };
  const api = await startApiProcess({ env, logFile: path.join(o.outDir, 'api-profiled.log'), inspect: true });
  const profiler = await connectProfiler(api.inspectorPort!);
  try {
    for (const route of o.routes) {
      const load = { url: api.url + route.path, connections: o.connections, headers: route.headers };
      await runLoad({ ...load, durationS: 2 });
      await profiler.start();
      const r = await runLoad({ ...load, durationS: o.durationS });
      const profile = await profiler.stop();
      const file = path.join(o.outDir, `${route.name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}.cpuprofile`);
      fs.writeFileSync(file, JSON.stringify(profile));
      const s = summariseProfile(profile, root, 25);
      const perReqUs = r.total > 0 ? Math.round((s.busyMs * 1000) / r.total) : NaN;
      console.log(
        `\n### profile: ${route.name} — ${r.rps} req/s under the profiler, ${r.statuses}; busy ${s.busyMs} of ${s.totalMs} ms sampled (≈ ${perReqUs} µs CPU per request); ${path.relative(root, file)}`,
      );
      printFrames('busy time by concern of the request path (bench/lib/profile-concerns.ts)', timeByConcern(profile), 16);
      printFrames('self time by area (package or project folder)', s.byArea, 12);
      printFrames('top self time (function, file)', s.self, 15);
      printFrames('top inclusive time (function, file)', s.inclusive, 25);
    }
  } finally {
    profiler.close();
    await api.stop();
  }
}

function printFrames(title: string, xs: FrameTime[], n: number) {
  console.log(`\n${title}:\n| % of busy | ms | frame |\n|---|---|---|`);
  for (const x of xs.slice(0, n)) console.log(`| ${x.pct.toFixed(1)} | ${x.ms} | \`${x.frame}\` |`);
}
