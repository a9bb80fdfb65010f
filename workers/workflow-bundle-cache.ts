import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflows } from './workflow-bundle';

const ROOT = path.resolve(__dirname, '..');
/** What the bundle is built from: workflow code and the pure domain it imports (sources, or the compiled image's .js). */
const SOURCES = ['workflows', 'domain'];

function sourceDigest(): string {
  const h = createHash('sha256');
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|js)$/.test(e.name)) h.update(path.relative(ROOT, p)).update('\0').update(fs.readFileSync(p)).update('\0');
    }
  };
  for (const s of SOURCES) walk(path.join(ROOT, s));
  // The locked dependency versions (the SDK's workflow runtime is bundled too); a built image has no lock file.
  for (const f of ['package-lock.json', '../package-lock.json']) if (fs.existsSync(path.join(ROOT, f))) h.update(fs.readFileSync(path.join(ROOT, f)));
  return h.digest('hex').slice(0, 16);
}

/**
 * The workflow bundle from `cacheDir` when one was built from the same sources, else built and saved there.
 * Bundling takes seconds of CPU; a worker restarted by its supervisor should be polling again well within
 * 10 s, so it reuses the bundle its previous run built (source changes make a new one).
 */
export async function cachedWorkflowBundle(cacheDir: string): Promise<{ codePath: string }> {
  const codePath = path.join(cacheDir, `workflow-bundle-${sourceDigest()}.js`);
  if (fs.existsSync(codePath)) return { codePath };
  const bundle = await bundleWorkflows();
  fs.mkdirSync(cacheDir, { recursive: true });
  // Written aside and renamed, so a worker killed mid-write never leaves a truncated bundle under the final name.
  const tmp = `${codePath}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, bundle.code);
  fs.renameSync(tmp, codePath);
  for (const old of fs.readdirSync(cacheDir))
    if (old.startsWith('workflow-bundle-') && path.join(cacheDir, old) !== codePath) fs.rmSync(path.join(cacheDir, old), { force: true });
  return { codePath };
}
