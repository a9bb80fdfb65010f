import fs from 'node:fs';
import path from 'node:path';

/** What global setup started for this run, shared with test files through a small JSON file. */
export type TestEnv = { adminUrl: string; templateDb: string; temporalAddress: string; workflowBundlePath: string };

export const ROOT = path.resolve(__dirname, '..', '..');
export const CACHE_DIR = path.join(ROOT, '.cache', 'test');
const ENV_FILE = path.join(CACHE_DIR, 'env.json');

export function writeTestEnv(env: TestEnv): void {
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  fs.writeFileSync(ENV_FILE, JSON.stringify(env));
}

export function readTestEnv(): TestEnv {
  return JSON.parse(fs.readFileSync(ENV_FILE, 'utf8')) as TestEnv;
}

/** Recorded launchpad data lives beside the repository and is never copied into it. */
export const SHARED_DATA = path.resolve(ROOT, '..', 'shared', 'data');
