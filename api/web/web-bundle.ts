import path from 'node:path';

/** The dashboard's browser sources (TypeScript and CSS under web/), and the names its files are served under. */
export const WEB_SOURCES_DIR = path.resolve(__dirname, '../../web');
const ENTRY_POINTS = { app: path.join(WEB_SOURCES_DIR, 'main.ts'), styles: path.join(WEB_SOURCES_DIR, 'styles.css') };

/**
 * Bundles web/ into the files the API serves (`app.js`, `styles.css`) with esbuild: one minified script with its npm
 * packages inside (openapi-fetch), nothing loaded from elsewhere at run time. `npm run build` writes the result to
 * dist/web for the image; a process running from the TypeScript sources (npm start, tests) bundles in memory at
 * its first page request, so the page always matches the code. esbuild is a build tool, loaded only here.
 */
export async function bundleWeb(): Promise<Map<string, Uint8Array>> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: ENTRY_POINTS,
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['chrome109', 'firefox115', 'safari15.4'],
    platform: 'browser',
    outdir: '/web',
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  return new Map(result.outputFiles.map((f) => [path.basename(f.path), f.contents]));
}
