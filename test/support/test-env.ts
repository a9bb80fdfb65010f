import fs from 'node:fs';
import path from 'node:path';

/** What global setup started for this run, shared with test files through a small JSON file. */
export type TestEnv = { adminUrl: string; templateDb: string; dbPrefix: string; temporalAddress: string; workflowBundlePath: string };

export const ROOT = path.resolve(__dirname, '..', '..');
// Jest's global setup and its test workers share this run's id through the environment it inherits.
export const RUN_ID = process.env.JEST_RUN_ID ?? (process.env.JEST_RUN_ID = String(process.pid));
export const CACHE_DIR = path.join(ROOT, '.cache', 'test');
const ENV_FILE = path.join(CACHE_DIR, `env-${RUN_ID}.json`);

export function writeTestEnv(env: TestEnv): void {
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  fs.writeFileSync(ENV_FILE, JSON.stringify(env));
}

export function readTestEnv(): TestEnv {
  return JSON.parse(fs.readFileSync(ENV_FILE, 'utf8')) as TestEnv;
}

/**
 * Recorded launchpad data lives beside the repository and is never copied into it: the nearest `shared/data` above
 * the checkout (a git worktree sits one level deeper than the main checkout).
 */
const sharedDataAbove = (dir: string): string => {
  const candidate = path.join(dir, 'shared', 'data');
  return fs.existsSync(candidate) || path.dirname(dir) === dir ? candidate : sharedDataAbove(path.dirname(dir));
};
export const SHARED_DATA = sharedDataAbove(path.dirname(ROOT));

export function removeTestEnv(): void {
  fs.rmSync(ENV_FILE, { force: true });
}
