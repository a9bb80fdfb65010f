import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { bundleWeb } from './web-bundle';

/** A file served as stored bytes: gzipped once, with a content ETag so a reload costs a 304. */
export type CachedBody = { body: Buffer; gzipped: Buffer; etag: string; type: string };

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

export function cachedBody(content: Uint8Array | string, type: string): CachedBody {
  const body = Buffer.from(content);
  return { body, gzipped: gzipSync(body), etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`, type };
}

/** The dashboard's files by name, loaded once at the first request. */
export type WebAssets = { get(name: string): Promise<CachedBody | undefined> };

/**
 * Where the files come from: `bundle` builds them from web/ in memory (a process running the TypeScript sources);
 * `dir` reads what `npm run build` wrote (the compiled image). A compiled process reads dist/web next to its code.
 */
export type WebAssetSource = { kind: 'bundle' } | { kind: 'dir'; dir: string };

export const defaultWebAssetSource = (): WebAssetSource =>
  __filename.endsWith('.ts') ? { kind: 'bundle' } : { kind: 'dir', dir: path.resolve(__dirname, '../../web') };

export function createWebAssets(source: WebAssetSource): WebAssets {
  let loading: Promise<Map<string, CachedBody>> | undefined;
  const load = async (): Promise<Map<string, CachedBody>> => {
    const files =
      source.kind === 'bundle'
        ? await bundleWeb()
        : new Map(fs.readdirSync(source.dir).map((name) => [name, fs.readFileSync(path.join(source.dir, name))] as const));
    return new Map([...files].filter(([name]) => TYPES[path.extname(name)]).map(([name, bytes]) => [name, cachedBody(bytes, TYPES[path.extname(name)]!)]));
  };
  return {
    async get(name) {
      // A failed load (a missing build, a syntax error in web/) is retried at the next request rather than kept.
      loading ??= load().catch((e: unknown) => {
        loading = undefined;
        throw e;
      });
      return (await loading).get(name);
    },
  };
}
