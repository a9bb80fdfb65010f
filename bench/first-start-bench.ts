import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { portOpen } from '../scripts/lib/local-temporal';
import { sleep } from '../scripts/lib/run';
import { machineLine } from './lib/load';

/**
 * `npm run bench:first-start [-- --rev <commit>] [--go]`: a fresh machine's first `npm start`, timed to its first
 * score. "Fresh" is simulated: a copy of the tree (the working tree, or the commit given with --rev) with no
 * `.tools` and no `.data`, and empty per-run caches for everything the start may fetch or build (XDG_CACHE_HOME,
 * where the Temporal CLI is cached; GOCACHE, GOMODCACHE and GOPATH for the Go build; PIP_CACHE_DIR for the wheel).
 * `node_modules` is this checkout's (a fresh clone runs `npm install` first; that is not what is timed). `--go`
 * sets TEMPORAL_CLI_FROM=go: the fallback that builds the CLI with Go. It prints when each piece answered.
 */
const { values: args } = parseArgs({
  options: { rev: { type: 'string' }, go: { type: 'boolean', default: false }, 'timeout-s': { type: 'string', default: '1200' } },
});
const root = path.resolve(__dirname, '..');

function copyTree(to: string): void {
  if (args.rev) {
    execFileSync('bash', ['-c', `git -C "${root}" archive "${args.rev}" | tar -x -C "${to}"`]);
    return;
  }
  const files = execFileSync('git', ['-C', root, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
    .split('\0')
    .filter((f) => f && fs.existsSync(path.join(root, f)));
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(to, f)), { recursive: true });
    fs.copyFileSync(path.join(root, f), path.join(to, f));
  }
}

/**
 * Free ports below the kernel's ephemeral range: the Go build takes minutes, and an ephemeral port that was free
 * when picked is soon some other program's outgoing connection.
 */
async function quietPorts(n: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < n) {
    const p = 20_000 + Math.floor(Math.random() * 10_000);
    if (!ports.includes(p) && !(await portOpen(p))) ports.push(p);
  }
  return ports;
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'first-start-'));
  fs.chmodSync(work, 0o755); // the PostgreSQL cluster runs as `postgres` and must reach its folder
  const tree = path.join(work, 'tree');
  fs.mkdirSync(tree);
  copyTree(tree);
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(tree, 'node_modules'));
  const caches = Object.fromEntries(['xdg-cache', 'go-cache', 'go-mod', 'go-path', 'pip-cache'].map((c) => [c, path.join(work, c)]));
  for (const dir of Object.values(caches)) fs.mkdirSync(dir);
  const [pgPort, temporalPort, uiPort, apiPort, metricsPort, apiMetricsPort] = await quietPorts(6);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_CACHE_HOME: caches['xdg-cache'],
    GOCACHE: caches['go-cache'],
    GOMODCACHE: caches['go-mod'],
    GOPATH: caches['go-path'],
    PIP_CACHE_DIR: caches['pip-cache'],
    TEMPORAL_CLI_PATH: '',
    TEMPORAL_CLI_FROM: args.go ? 'go' : '',
    DATABASE_URL: '',
    TEMPORAL_ADDRESS: '',
    DATA_DIR: path.join(tree, '.data'),
    API_HOST: '127.0.0.1',
    API_PORT: String(apiPort),
    WORKER_METRICS_PORT: String(metricsPort),
    API_METRICS_PORT: String(apiMetricsPort),
    PRICE_SOURCE_URL: 'http://127.0.0.1:9/unreachable',
  };
  const what = `${args.rev ? `commit ${args.rev}` : 'the working tree'}${args.go ? ', CLI built with Go (TEMPORAL_CLI_FROM=go)' : ''}`;
  console.log(
    `first start — ${machineLine()}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}\n${what}, fresh copy in ${work}`,
  );

  const t0 = Date.now();
  const s = (at: number) => `${((at - t0) / 1000).toFixed(1)} s`;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/start.ts', '--pg-port', `${pgPort}`, '--temporal-port', `${temporalPort}`, '--temporal-ui-port', `${uiPort}`],
    {
      cwd: tree,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const logFile = path.join(root, '.cache', 'bench', `first-start${args.go ? '-go' : ''}.log`);
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.createWriteStream(logFile);
  const marks: [string, number][] = [];
  let partial = '';
  const onOut = (b: Buffer) => {
    log.write(b);
    const lines = (partial + b.toString()).split('\n');
    partial = lines.pop()!;
    for (const l of lines) if (/^• |^!! |^✗ /.test(l) && marks.length < 60) marks.push([l.slice(0, 140), Date.now()]);
  };
  child.stdout.on('data', onOut);
  child.stderr.on('data', onOut);
  const api = `http://127.0.0.1:${apiPort}`;
  let apiAt: number | undefined;
  const scoredAt: Record<number, number> = {};
  const deadline = t0 + Number(args['timeout-s']) * 1000;
  try {
    while (!(scoredAt[30] && scoredAt[60]) && Date.now() < deadline && child.exitCode === null) {
      const r = await fetch(`${api}/api/live`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
      if (r) apiAt ??= Date.now();
      if (r?.status === 200) {
        const body = (await r.json()) as { mints: { grad_prob: number | null; grad_prob_age_bucket: number | null }[] };
        for (const m of body.mints) if (m.grad_prob !== null && m.grad_prob_age_bucket) scoredAt[m.grad_prob_age_bucket] ??= Date.now();
      }
      await sleep(500);
    }
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
    log.end();
  }
  console.log('\nwhat npm start said, and when:');
  for (const [line, at] of marks) console.log(`  ${s(at).padStart(8)}  ${line}`);
  console.log(`\n  API first answered        ${apiAt ? s(apiAt) : 'never'}`);
  console.log(`  first 30 s score on /api/live  ${scoredAt[30] ? s(scoredAt[30]) : 'none'}`);
  console.log(`  first 60 s score on /api/live  ${scoredAt[60] ? s(scoredAt[60]) : 'none'}`);
  console.log(`  (output of npm start in ${path.relative(root, logFile)})`);
  // The Go module cache is read-only by design.
  execFileSync('chmod', ['-R', 'u+w', work]);
  fs.rmSync(work, { recursive: true, force: true });
  if (!scoredAt[30]) process.exitCode = 1;
}

void main();
