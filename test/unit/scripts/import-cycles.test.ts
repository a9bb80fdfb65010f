import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SCRIPT = path.resolve(__dirname, '../../../scripts/import-cycles.ts');

/** A tree of `files` (path → source) under a fresh temporary root. */
function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'import-cycles-'));
  for (const [file, source] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), source);
  }
  return root;
}

/** The check as `npm test` runs it, over another root: its exit code and what it printed. */
async function check(root: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run('npx', ['tsx', SCRIPT, root], { cwd: path.dirname(SCRIPT) });
    return { code: 0, out: stdout };
  } catch (e) {
    const err = e as { code: number; stdout: string };
    return { code: err.code, out: err.stdout };
  }
}

describe('the import-cycle check', () => {
  // A lower area (live) and an upper one (wallets) that reads it: one direction only.
  const layered = {
    'domain/live/smart.ts': 'export type Smart = { n: number };\n',
    'db/wallets/lookup.ts': "import type { Smart } from '../../domain/live/smart';\nexport const none: Smart = { n: 0 };\n",
  };

  it('passes areas that import each other in one direction only', async () => {
    const { code, out } = await check(tree(layered));
    expect(out).toContain('area cycles: 0 (none), area edges on cycles: 0');
    expect(code).toBe(0);
  }, 60_000);

  it('fails on any area cycle, type-only imports and different role folders included, naming the edges and files', async () => {
    const root = tree({
      ...layered,
      'activities/live/uses-wallets.ts': "import type { none } from '../../db/wallets/lookup';\nexport type N = typeof none;\n",
    });
    const { code, out } = await check(root);
    expect(code).toBe(1);
    expect(out).toContain('mutually importing area pairs: 1 (live ↔ wallets)');
    expect(out).toContain('area cycle edge live → wallets:\n  activities/live/uses-wallets.ts imports db/wallets/lookup.ts');
    expect(out).toContain('area cycle edge wallets → live:\n  db/wallets/lookup.ts imports domain/live/smart.ts');
  }, 60_000);
});
