import fs from 'node:fs';
import path from 'node:path';
import { createApiKeyStore } from '../db/access/api-key-store';
import { startApiProcess } from './lib/api-under-test';
import { recordAnswer, startBareServer, type RecordedAnswer } from './lib/bare-server';
import { benchDatabase } from './lib/bench-postgres';
import { profileRoutes } from './lib/ceiling-profile';
import { ceilingRoutes, type CeilingRoute } from './lib/ceiling-routes';
import { runLoad, type LoadFigures } from './lib/load-process';
import { cpuSeconds, machineNow } from './lib/proc-stat';
import { seedScoredLiveList } from './lib/scored-market-seed';

/**
 * `npm run bench:ceiling [-- seconds [rounds]] [--entries=40,500] [--profile | --profile-only] [--express-floor]`: the
 * API against the machine's ceiling. The API runs as production runs it (its own process, NODE_ENV=production,
 * LOG_LEVEL=info, response validation off, access log to a file) over a live list of each size in turn (40 scored
 * mints, about what `npm start` lists, then 500, ≈ 1 MB); beside it a bare Node `http`
 * server (its own process) answers the very bytes the API answered for each route with `res.end(buffer)`. For
 * each route, in turn and alternating API / bare, autocannon (its own process) runs 16 connections for
 * `seconds`, `rounds` times. Prints req/s, p50/p99, CPU per request and the API ÷ bare ratio against the aims
 * of each route. `--profile` then profiles every route (bench/lib/ceiling-profile.ts); `--express-floor` also
 * measures a minimal Express app (one `app.get` per path) serving the same bytes.
 */
const args = process.argv.slice(2);
const [DURATION_S = 8, ROUNDS = 2] = args.filter((a) => !a.startsWith('--')).map(Number);
const PROFILE = args.includes('--profile') || args.includes('--profile-only');
const MEASURE = !args.includes('--profile-only');
/** Also a minimal Express app serving the same bytes: the floor of the API's framework. */
const EXPRESS_FLOOR = args.includes('--express-floor');
const CONNECTIONS = 16;
/**
 * Live lists of two sizes: about what `npm start`'s simulator lists (the bodies clients actually get), and the
 * 500-mint maximum (≈ 1 MB, where copying bytes hides the per-request cost), for comparison. `--entries=a,b` overrides.
 */
const ENTRIES = (args.find((a) => a.startsWith('--entries='))?.slice('--entries='.length) ?? '40,500').split(',').map(Number);
const root = path.resolve(__dirname, '..');
const work = path.join(root, '.cache', 'bench', 'ceiling');

type Run = LoadFigures & { cpuUsPerReq: number; warmTotal: number };
type Runs = { api: Run[]; bare: Run[]; express: Run[]; bytes: number };

async function main() {
  for (const entries of ENTRIES) await measureAt(entries);
}

async function measureAt(entries: number) {
  const before = machineNow();
  const bench = await benchDatabase('launchpad_bench_ceiling');
  const now = Date.now();
  const seeded = await seedScoredLiveList(bench.db, { now, liveMaxEntries: entries });
  // Enterprise with a contract quota no run can use up, so every keyed call is counted and none is refused.
  const key = await createApiKeyStore(bench.db).issueKey({ tier: 'enterprise', customDailyQuota: 1_000_000_000, source: 'admin' });
  await bench.db.destroy();
  // The body's size is the list's length: a listed mint shows `grad_prob` only about 30 s and 60 s after launch
  // (domain/live/enriched-mint.ts), so most listed mints carry it as null, as `npm start`'s list does.
  if (seeded.listed < entries) throw new Error(`the live list has ${seeded.listed} mints, not ${entries}`);
  const routes = ceilingRoutes(key.plaintext);
  const env = {
    DATABASE_URL: bench.url,
    NODE_ENV: 'production',
    DEMO_MODE: 'true',
    LOG_LEVEL: 'info',
    VALIDATE_RESPONSES: 'false',
    // Keys are required (the beta window is over), as they will be in production.
    API_KEY_REQUIRED_AFTER: '2000-01-01T00:00:00Z',
    // One snapshot for the whole run (the longest allowed): it must not turn stale (and be re-serialised) midway.
    LIVE_STALE_AFTER_S: '3600',
    // One serving process against the one bare server (production's default is one per core): the same footing, and
    // the CPU per request measured is the serving process's, not an idle cluster primary's. API_PROCESSES overrides.
    API_PROCESSES: process.env.API_PROCESSES ?? '1',
  };
  console.log(
    `\n## bench:ceiling — a live list of ${entries} mints: seeded ${seeded.tracked} live mints (${seeded.listed} listed, ${seeded.scored} with grad_prob shown, ${seeded.predictions} predictions); ${CONNECTIONS} connections, ${DURATION_S} s per run, ${ROUNDS} rounds`,
  );

  const runs = new Map<string, Runs>();
  let logBytes = 0;
  if (MEASURE) {
    const logFile = path.join(work, 'api.log');
    const api = await startApiProcess({ env, logFile });
    const answers: RecordedAnswer[] = [];
    try {
      for (const r of routes) {
        const a = await recordAnswer(api.url, r.path, r.headers);
        if (a.status !== r.expectStatus) throw new Error(`${r.name} answered ${a.status}, expected ${r.expectStatus}`);
        answers.push(a);
        runs.set(r.name, { api: [], bare: [], express: [], bytes: a.bytes });
      }
      const bare = await startBareServer(answers, work);
      const floor = EXPRESS_FLOOR ? await startBareServer(answers, work, 'express') : undefined;
      try {
        for (let round = 0; round < ROUNDS; round++) {
          for (const r of routes) {
            runs.get(r.name)!.api.push(await measure(api.url, api.pid, r));
            runs.get(r.name)!.bare.push(await measure(bare.url, bare.pid, r));
            if (floor) runs.get(r.name)!.express.push(await measure(floor.url, floor.pid, r));
          }
        }
      } finally {
        await bare.stop();
        await floor?.stop();
      }
    } finally {
      await api.stop();
    }
    logBytes = fs.statSync(logFile).size;
  }
  const after = machineNow();

  console.log(`\nmachine: ${before.cores} cores (${before.cpu}), ${before.memGiB} GiB; load average (1/5/15 min) before ${before.load}, after ${after.load}`);
  if (MEASURE) printTable(routes, runs, logBytes);
  if (PROFILE) {
    await profileRoutes({
      env,
      routes,
      durationS: DURATION_S,
      connections: CONNECTIONS,
      outDir: path.join(root, '.cache', 'bench', 'profiles', `${entries}-mints`),
    });
  }
  await bench.stop();
}

/** A one-second warm-up (JIT, pools, caches), then the measured run; CPU of the serving process per request. */
async function measure(base: string, pid: number, r: CeilingRoute): Promise<Run> {
  const load = { url: base + r.path, connections: CONNECTIONS, headers: r.headers };
  const warm = await runLoad({ ...load, durationS: 1 });
  const cpu0 = cpuSeconds(pid);
  const x = await runLoad({ ...load, durationS: DURATION_S });
  const cpuUsPerReq = Math.round(((cpuSeconds(pid) - cpu0) * 1e6) / Math.max(1, x.total));
  if (x.errors > 0) console.log(`  ${r.name} on ${base}: ${x.errors} connection errors or timeouts`);
  return { ...x, cpuUsPerReq, warmTotal: warm.total };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const range = (xs: number[], digits = 0) => {
  const [lo, hi] = [Math.min(...xs), Math.max(...xs)].map((x) => x.toFixed(digits));
  return lo === hi ? lo! : `${lo} – ${hi}`;
};

function printTable(routes: CeilingRoute[], runs: Map<string, Runs>, logBytes: number) {
  console.log(
    `\n| route | body bytes | API req/s | bare Node req/s | ratio | API p50 / p99 ms | bare p50 / p99 ms | API CPU µs/req | bare CPU µs/req | aim | met |`,
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  const verdicts: string[] = [];
  const floors: string[] = [];
  let apiRequests = 0;
  for (const r of routes) {
    const { api, bare, express, bytes } = runs.get(r.name)!;
    apiRequests += api.reduce((s, x) => s + x.total + x.warmTotal, 1);
    const ratios = api.map((x, i) => x.rps / Math.max(1, bare[i]!.rps));
    const ratio = median(ratios);
    const p99 = median(api.map((x) => x.p99));
    const met = ratio >= r.aim.minRatio && (r.aim.maxP99Ms === undefined || p99 <= r.aim.maxP99Ms);
    const aim = `≥ ${r.aim.minRatio}${r.aim.maxP99Ms !== undefined ? `, p99 ≤ ${r.aim.maxP99Ms} ms` : ''}`;
    console.log(
      `| ${r.name} | ${bytes} | ${range(api.map((x) => x.rps))} | ${range(bare.map((x) => x.rps))} | ${range(ratios, 2)} | ${range(api.map((x) => x.p50))} / ${range(api.map((x) => x.p99))} | ${range(bare.map((x) => x.p50))} / ${range(bare.map((x) => x.p99))} | ${range(api.map((x) => x.cpuUsPerReq))} | ${range(bare.map((x) => x.cpuUsPerReq))} | ${aim} | ${met ? 'yes' : '**no**'} |`,
    );
    verdicts.push(`${r.name}: ratio ${ratio.toFixed(2)} (median of ${api.length}), p99 ${p99} ms → aim ${aim} (${r.aim.group}) ${met ? 'met' : 'NOT met'}`);
    if (express.length) {
      const floorRatios = express.map((x, i) => x.rps / Math.max(1, bare[i]!.rps));
      floors.push(
        `| ${r.name} | ${range(express.map((x) => x.rps))} | ${range(floorRatios, 2)} | ${range(express.map((x) => x.p50))} / ${range(express.map((x) => x.p99))} | ${range(express.map((x) => x.cpuUsPerReq))} |`,
      );
    }
    const odd = [...api, ...bare].filter((x) => x.errors > 0 || !x.statuses.startsWith(String(r.expectStatus)) || x.statuses.includes(' '));
    if (odd.length) verdicts.push(`  ${r.name}: unexpected statuses or errors: ${odd.map((x) => `${x.statuses} errors×${x.errors}`).join('; ')}`);
  }
  console.log(`\n${verdicts.join('\n')}`);
  if (floors.length) {
    console.log('\nminimal Express app (one app.get per path, res.end(buffer)) serving the same bytes — the floor of the framework:');
    console.log(`| route | Express req/s | Express ÷ bare | p50 / p99 ms | CPU µs/req |\n|---|---|---|---|---|\n${floors.join('\n')}`);
  }
  console.log(
    `\naccess log written by the API at LOG_LEVEL=info: ${(logBytes / 2 ** 20).toFixed(1)} MiB for ${apiRequests} requests (warm-ups included) → ≈ ${Math.round(logBytes / Math.max(1, apiRequests))} bytes per request`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
