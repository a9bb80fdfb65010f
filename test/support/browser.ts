import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { ROOT } from './test-env';

const execFileAsync = promisify(execFile);

/**
 * Debian's chromium package, found or installed by scripts/ensure-chromium.sh (which `.ci/run` also runs up front):
 * playwright-core drives it and downloads no browser of its own. The install can take minutes on a fresh machine.
 */
export async function chromiumPath(): Promise<string> {
  const found = await execFileAsync('bash', [path.join(ROOT, 'scripts', 'ensure-chromium.sh')], { encoding: 'utf8', timeout: 600_000 });
  if (found.stderr) process.stderr.write(found.stderr);
  return found.stdout.trim();
}

export const SCREENSHOT_DIR = path.join(ROOT, '.cache', 'screenshots');

/** Nothing that reaches out: this machine's network is closed, and a test page must load only from the API under test. */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  // A container's /dev/shm is often 64 MB, too small for Chromium's shared memory: use /tmp instead.
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type Browser = { context: BrowserContext; close(): Promise<void> };

/** A headless Chromium with a fresh profile of its own, removed on close. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = await chromiumPath();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'dashboard-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: ARGS,
    viewport: { width: 1440, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * What a page said went wrong: uncaught exceptions, and console errors. Chromium logs every fetch answered with a
 * 4xx or 5xx as a console error ("Failed to load resource"); the answers a page expects as states of the service
 * (a 501 "not live yet", a 401 "needs a key") are named in `expected` by URL and status and left out.
 */
export function watchErrors(page: Page, expected: { url: RegExp; status: number }[] = []): () => string[] {
  const errors: string[] = [];
  const failedLoad = /^Failed to load resource: the server responded with a status of (\d+)/;
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() !== 'error') return;
    const status = Number(failedLoad.exec(m.text())?.[1]);
    const url = m.location().url;
    if (expected.some((x) => x.status === status && x.url.test(url))) return;
    errors.push(`console error: ${m.text()} (${url})`);
  });
  return () => errors;
}

/** What a person sees on opening the page (`name.png`) and, with `full`, the whole page (`name-full.png`). */
export async function screenshot(page: Page, name: string, o: { full?: boolean } = {}): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
  if (o.full) await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-full.png`), fullPage: true });
}
