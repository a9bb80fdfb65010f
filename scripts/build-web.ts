import fs from 'node:fs';
import path from 'node:path';
import { bundleWeb } from '../api/web/web-bundle';

/**
 * `npm run build`'s dashboard step: bundles web/ (with its npm packages) into dist/web, where the compiled API
 * serves it from (api/web/web-assets.ts). The image prunes esbuild afterwards; the files need nothing at run time.
 */
async function main(): Promise<void> {
  const out = path.resolve(__dirname, '..', 'dist', 'web');
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  for (const [name, bytes] of await bundleWeb()) {
    fs.writeFileSync(path.join(out, name), bytes);
    console.log(`dist/web/${name} ${(bytes.byteLength / 1024).toFixed(1)} KiB`);
  }
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
