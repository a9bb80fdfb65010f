import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { run } from '../../scripts/lib/run';
import { CACHE_DIR, ROOT } from './test-env';

/**
 * The published clients of the service this API replaces, installed from their registries as a trader installs
 * them, pinned: the Python SDK `graduate-oracle` 0.1.0 from PyPI (pip --require-hashes, every wheel's sha256 in
 * published-clients/graduate-oracle-requirements.txt) and the CLI `goracle` 0.3.0 from npm (npm ci from the lock in
 * published-clients/goracle, whose integrity of goracle itself is checked against GORACLE_INTEGRITY). Downloads are
 * kept under the git-ignored `.cache/published-clients` (wheels, npm's cache, the installs), so once installed the
 * tests need no network; a new machine (CI) installs from the registries.
 */
const HERE = path.join(ROOT, 'test', 'support', 'published-clients');
const DIR = path.join(ROOT, '.cache', 'published-clients');
const REQUIREMENTS = path.join(HERE, 'graduate-oracle-requirements.txt');
const LOCK_DIR = path.join(HERE, 'goracle');
export const SDK_VERSION = '0.1.0';
export const CLI_VERSION = '0.3.0';
/** npm's sha512 of goracle-0.3.0.tgz, as recorded when the clients were studied (docs: README, accommodations). */
export const GORACLE_INTEGRITY = 'sha512-wP+IdwH2iL06Mr0bBCsORC9LSJIPJb0zVzfIY3Gx4YfhEaqNRMSdvJ/HAq0gN9DjEP/YvXJIXhSIjpC3NrilwQ==';

const digest = (...files: string[]) =>
  createHash('sha256')
    .update(files.map((f) => fs.readFileSync(f)).join('\0'))
    .digest('hex')
    .slice(0, 12);

/** A venv with the SDK, keyed by the requirements' content; wheels come from the cache, else from PyPI into it. */
async function installSdk(): Promise<string> {
  const venv = path.join(DIR, `venv-${digest(REQUIREMENTS)}`);
  const python = path.join(venv, 'bin', 'python');
  const done = path.join(venv, '.installed');
  if (fs.existsSync(done)) return python;
  fs.rmSync(venv, { recursive: true, force: true });
  await run('python3', ['-m', 'venv', venv]);
  const wheels = path.join(DIR, 'wheels');
  const pip = path.join(venv, 'bin', 'pip');
  const common = ['--quiet', '--disable-pip-version-check', '--require-hashes', '--only-binary=:all:', '-r', REQUIREMENTS];
  const offline = () => run(pip, ['install', '--no-index', '--find-links', wheels, ...common]);
  await offline().catch(async () => {
    await run(pip, ['download', '--no-deps', '-d', wheels, ...common], { timeout: 300_000 });
    await offline();
  });
  const version = (await run(python, ['-c', 'import graduate_oracle; print(graduate_oracle.__version__)'])).trim();
  if (version !== SDK_VERSION) throw new Error(`installed graduate-oracle ${version}, not ${SDK_VERSION}`);
  fs.writeFileSync(done, `${version}\n`);
  return python;
}

/** goracle and its dependencies exactly as locked, into a prefix keyed by the lock; npm checks every tarball's integrity. */
async function installCli(): Promise<string> {
  const lock = JSON.parse(fs.readFileSync(path.join(LOCK_DIR, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; integrity?: string }>;
  };
  const pinned = lock.packages['node_modules/goracle'];
  if (pinned?.version !== CLI_VERSION || pinned.integrity !== GORACLE_INTEGRITY)
    throw new Error(`the goracle lock pins ${pinned?.version} ${pinned?.integrity}, not ${CLI_VERSION} ${GORACLE_INTEGRITY}`);
  const prefix = path.join(DIR, `goracle-${digest(path.join(LOCK_DIR, 'package.json'), path.join(LOCK_DIR, 'package-lock.json'))}`);
  const entry = path.join(prefix, 'node_modules', 'goracle', 'src', 'index.js');
  if (fs.existsSync(entry)) return entry;
  // Installed beside and renamed into place, so a half-finished install is never taken for a finished one.
  const tmp = `${prefix}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(LOCK_DIR, f), path.join(tmp, f));
  await run('npm', ['ci', '--prefix', tmp, '--cache', path.join(DIR, 'npm-cache'), '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], {
    timeout: 300_000,
  });
  fs.renameSync(tmp, prefix);
  return entry;
}

export type Outcome = { code: number | null; stdout: string; stderr: string };
export type SdkResult = { ok?: unknown; error?: { status: number; body: any }; version: string };

export type PublishedClients = {
  /** One SDK method call against `base`, e.g. sdk(base, key, 'runners', { tier: '5x' }). */
  sdk: (base: string, key: string | null, method: string, kwargs?: Record<string, unknown>) => Promise<SdkResult>;
  /** A goracle user with a config folder of its own (XDG_CONFIG_HOME), pointed at `base`. */
  cliUser: (base: string) => Promise<CliUser>;
};

export type CliUser = {
  /** Runs a command to its end. */
  run: (args: string[], timeoutMs?: number) => Promise<Outcome>;
  /** Starts a long command (signup polls every 5 s), its output readable while it runs. */
  start: (args: string[]) => { child: ChildProcess; output: () => string; exited: Promise<Outcome> };
  /** The CLI's saved settings (config.json in its config folder). */
  config: () => Record<string, unknown>;
  /** URLs the CLI asked the desktop to open (`xdg-open`, replaced by a recorder on PATH). */
  opened: () => string[];
};

export async function installPublishedClients(): Promise<PublishedClients> {
  fs.mkdirSync(DIR, { recursive: true });
  const [python, cliEntry] = await Promise.all([installSdk(), installCli()]);
  let users = 0;
  return {
    async sdk(base, key, method, kwargs = {}) {
      const out = await run(python, [path.join(HERE, 'sdk_driver.py'), base, key ?? '', method, JSON.stringify(kwargs)], { timeout: 60_000 });
      return JSON.parse(out.trim().split('\n').pop()!) as SdkResult;
    },
    async cliUser(base) {
      const home = path.join(CACHE_DIR, `goracle-user-${process.pid}-${++users}`);
      const bin = path.join(home, 'bin');
      const openedFile = path.join(home, 'opened.txt');
      fs.rmSync(home, { recursive: true, force: true });
      fs.mkdirSync(bin, { recursive: true });
      // What the CLI would open in a browser is recorded instead: the test plays the browser.
      fs.writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\necho "$1" >> ${JSON.stringify(openedFile)}\n`, { mode: 0o755 });
      const env = {
        ...process.env,
        HOME: home,
        XDG_CONFIG_HOME: path.join(home, 'config'),
        PATH: `${bin}:${process.env.PATH}`,
        FORCE_COLOR: '0',
        npm_package_version: CLI_VERSION,
      };
      const start = (args: string[]) => {
        const child = spawn(process.execPath, [cliEntry, ...args], { env, cwd: home, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout!.on('data', (b: Buffer) => (stdout += b.toString()));
        child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
        const exited = new Promise<Outcome>((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
        return { child, output: () => stdout + stderr, exited };
      };
      const user: CliUser = {
        start,
        run: async (args, timeoutMs = 30_000) => {
          const c = start(args);
          const timer = setTimeout(() => c.child.kill('SIGKILL'), timeoutMs);
          const o = await c.exited;
          clearTimeout(timer);
          return o;
        },
        config: () => JSON.parse(fs.readFileSync(path.join(home, 'config', 'goracle-nodejs', 'config.json'), 'utf8')) as Record<string, unknown>,
        opened: () => (fs.existsSync(openedFile) ? fs.readFileSync(openedFile, 'utf8').trim().split('\n') : []),
      };
      const set = await user.run(['config', '--set', `apiBase=${base}`]);
      if (set.code !== 0) throw new Error(`goracle config failed: ${set.stdout}${set.stderr}`);
      return user;
    },
  };
}
