import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createApiKeyStore } from '../db/access/api-key-store';
import { migrateToLatest } from '../db/migrate';
import { Client } from 'pg';
import { createDb } from '../platform/db';
import { spawnApiServer } from '../scripts/lib/api-process';
import { ensureDatabase, startLocalPostgres } from '../scripts/lib/local-postgres';
import { seedSimulatedMarket } from '../scripts/lib/seed-market';
import { asDb } from '../db/knex-handle';

const root = path.resolve(__dirname, '..');

/**
 * `npm run bench:auth [seconds] [rounds]`: what keys and quotas cost. autocannon on loopback against
 * `GET /api/v1/live` served by `api/server.ts` as its own process, once with `API_AUTH_ENABLED=false` and once
 * with a key on every call (key lookup, tier check and the exact Postgres quota count), alternating for
 * `rounds` rounds. Prints req/s and p99 per run, and the medians' ratio. Load generator and server share the
 * machine's cores, so compare the ratio, not absolute figures.
 */
const DURATION_S = Number(process.argv[2] ?? 10);
const ROUNDS = Number(process.argv[3] ?? 2);
const CONNECTIONS = 16;
const PG_PORT = Number(process.env.TEST_PG_PORT ?? 54339);

type Run = { rps: number; p50: number; p99: number; statuses: string; apiCpuMs: number; pgCpuMs: number };

/** The API process's own CPU seconds, from its Prometheus endpoint. */
async function apiCpuSeconds(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(/^process_cpu_seconds_total(?:\{[^}]*\})? ([\d.e+-]+)$/m.exec(text)?.[1] ?? NaN);
}

/** CPU seconds of the whole local PostgreSQL cluster (postmaster, its live backends and the ones it reaped); Linux /proc. */
function pgCpuSeconds(): number {
  const pidFile = path.join(root, '.data', 'postgres', 'test', 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return NaN;
  const master = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  const ticks = (pid: number, withChildren: boolean) => {
    const raw = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
    // Fields after the command: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
    return { ppid: Number(f[1]), t: Number(f[11]) + Number(f[12]) + (withChildren ? Number(f[13]) + Number(f[14]) : 0) };
  };
  let total = ticks(master, true).t;
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const p = ticks(Number(d), false);
      if (p.ppid === master) total += p.t;
    } catch {
      /* exited meanwhile */
    }
  }
  return total / 100; // USER_HZ
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main() {
  const pg = await startLocalPostgres(path.join(root, '.data'), 'test', PG_PORT);
  // A fresh database each run: counts and keys of an earlier run must not carry over.
  const admin = new Client({ connectionString: pg.url('postgres') });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS launchpad_bench_auth WITH (FORCE)');
  await admin.end();
  await ensureDatabase(pg.url('postgres'), 'launchpad_bench_auth');
  const url = pg.url('launchpad_bench_auth');
  const db = asDb(createDb(url, 5));
  await migrateToLatest(db);
  // A realistic live list: ten simulated minutes through the real projector.
  const now = Date.now();
  await seedSimulatedMarket(db, now, 3);
  // Enterprise with a contract quota no run can use up, so every call is counted and none is refused.
  const key = await createApiKeyStore(db).issueKey({ tier: 'enterprise', customDailyQuota: 1_000_000_000, source: 'admin' });

  const env = {
    DATABASE_URL: url,
    NODE_ENV: 'production',
    DEMO_MODE: 'true',
    VALIDATE_RESPONSES: 'false',
    LOG_LEVEL: 'warn',
    API_KEY_REQUIRED_AFTER: '2000-01-01T00:00:00Z',
  };
  const runs: Record<'off' | 'on', Run[]> = { off: [], on: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of ['off', 'on'] as const) {
      const server = await spawnApiServer({ ...env, API_AUTH_ENABLED: String(mode === 'on') });
      const opts = { url: `${server.url}/api/v1/live`, headers: mode === 'on' ? { authorization: `Bearer ${key.plaintext}` } : {} };
      await autocannon({ ...opts, connections: 4, duration: 2 }); // warm-up: JIT, pools, caches
      const [api0, pg0] = [await apiCpuSeconds(server.url), pgCpuSeconds()];
      const r = await autocannon({ ...opts, connections: CONNECTIONS, duration: DURATION_S });
      const [api1, pg1] = [await apiCpuSeconds(server.url), pgCpuSeconds()];
      const perCallMs = (s: number) => Math.round((s * 1e6) / Math.max(1, r.requests.total)) / 1000;
      const statuses = Object.entries(r.statusCodeStats ?? {})
        .map(([code, s]) => `${code}×${(s as { count: number }).count}`)
        .join(' ');
      runs[mode].push({
        rps: Math.round(r.requests.average),
        p50: r.latency.p50,
        p99: r.latency.p99,
        statuses,
        apiCpuMs: perCallMs(api1 - api0),
        pgCpuMs: perCallMs(pg1 - pg0),
      });
      await server.stop();
      // A run that measured errors measured nothing useful.
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`auth ${mode}: ${r.non2xx} non-2xx answers and ${r.errors} errors (${statuses})`);
    }
  }
  const counted = await db('api_key_daily_usage').where({ key_id: key.id }).sum('used as n').first();

  console.log(
    `\nbench:auth — GET /api/v1/live, ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${CONNECTIONS} connections, ${DURATION_S}s per run, ${ROUNDS} rounds, loopback`,
  );
  console.log('| round | auth | req/s | p50 ms | p99 ms | API CPU ms/call | Postgres CPU ms/call | statuses |\n|---|---|---|---|---|---|---|---|');
  for (let i = 0; i < ROUNDS; i++)
    for (const mode of ['off', 'on'] as const) {
      const x = runs[mode][i]!;
      console.log(`| ${i + 1} | ${mode} | ${x.rps} | ${x.p50} | ${x.p99} | ${x.apiCpuMs} | ${x.pgCpuMs} | ${x.statuses} |`);
    }
  const [offRps, onRps] = [median(runs.off.map((x) => x.rps)), median(runs.on.map((x) => x.rps))];
  const [offP99, onP99] = [median(runs.off.map((x) => x.p99)), median(runs.on.map((x) => x.p99))];
  console.log(
    `\nauth + quota cost (medians): req/s on ÷ off = ${(onRps / offRps).toFixed(3)} (${((1 - onRps / offRps) * 100).toFixed(1)}% fewer); p99 on ÷ off = ${(onP99 / offP99).toFixed(2)}×`,
  );
  const [offCpu, onCpu] = [median(runs.off.map((x) => x.apiCpuMs + x.pgCpuMs)), median(runs.on.map((x) => x.apiCpuMs + x.pgCpuMs))];
  console.log(`CPU per call, API + Postgres (medians; steadier than req/s on a shared machine): on ÷ off = ${(onCpu / offCpu).toFixed(3)}`);
  console.log(`calls counted in Postgres during the authenticated runs (warm-ups included): ${Number(counted?.n ?? 0)}`);
  await db.destroy();
  if (pg.startedHere) await pg.stop();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
