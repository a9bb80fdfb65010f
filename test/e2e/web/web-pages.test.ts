import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createWebAssets } from '../../../api/web/web-assets';
import { call, useApi } from '../../support/api-harness';

/**
 * The dashboard's pages and files over HTTP: every page is the same-origin shell under a strict policy, the script
 * and stylesheet come from the API itself (bundled from web/ with their npm packages, gzipped, revalidated by ETag),
 * and anything else on these paths gets the app's JSON errors, never a page.
 */
const { api } = useApi();

/** A raw GET (no automatic decompression), to see exactly what was sent. */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

const MINT = '2qx3tdpCkHbLXi9SNg81e41iLNdFgdLSShk3CZjMpump';

describe('dashboard pages', () => {
  it.each([
    ['/', 'live', 'Live launches'],
    ['/accuracy', 'accuracy', 'Forward accuracy'],
    ['/audit', 'audit', 'Audit trail'],
    [`/mint/${MINT}`, 'mint', 'Mint'],
  ])('serves %s as the %s page under a same-origin content policy', async (p, page, heading) => {
    const r = await fetch(`${api.url}${p}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = r.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await r.text();
    expect(html).toContain(`<body data-page="${page}">`);
    expect(html).toContain(`<h1>${heading}</h1>`);
    // Nothing from another origin: every script, stylesheet and link is a path on this API.
    expect([...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]).filter((u) => !u!.startsWith('/') && !u!.startsWith('#') && u !== 'data:,')).toEqual(
      [],
    );
  });

  it('serves the bundled script and stylesheet gzipped, with an ETag that answers 304', async () => {
    const js = await rawGet(`${api.url}/web/app.js`, { 'accept-encoding': 'gzip' });
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['content-encoding']).toBe('gzip');
    const source = gunzipSync(js.body).toString('utf8');
    // openapi-fetch is inside the bundle; nothing is imported or fetched from elsewhere.
    expect(source).toContain('/api/live');
    // (The one address it names is SVG's namespace; its "https://" in a message names a scheme, not a host.)
    expect(source).not.toMatch(/\bimport\s*\(|\brequire\(|https?:\/\/(?!www\.w3\.org\/2000\/svg)[\w-]+\./);
    const again = await rawGet(`${api.url}/web/app.js`, { 'if-none-match': js.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);

    const css = await rawGet(`${api.url}/web/styles.css`);
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['content-encoding']).toBeUndefined();
    expect(css.body.toString('utf8')).toContain('prefers-color-scheme');
  });

  it('answers an unknown file or a malformed mint address with the JSON 404', async () => {
    for (const p of ['/web/nope.js', '/web/app.js.map', '/mint/not-a-mint', `/mint/${MINT}0OIl`]) {
      const r = await call(`${api.url}${p}`);
      expect([p, r.status]).toEqual([p, 404]);
      expect(r.body).toMatchObject({ error: 'not_found' });
    }
  });

  it('answers another method 405 with Allow, and OPTIONS 204', async () => {
    for (const p of ['/accuracy', '/audit', `/mint/${MINT}`, '/web/app.js']) {
      const r = await call(`${api.url}${p}`, { method: 'POST' });
      expect([p, r.status]).toEqual([p, 405]);
      expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(r.body).toMatchObject({ error: 'method_not_allowed' });
      const o = await fetch(`${api.url}${p}`, { method: 'OPTIONS' });
      expect(o.status).toBe(204);
      expect(o.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    }
  });
});

describe('the compiled image', () => {
  it('serves the files `npm run build` wrote (dist/web), not a bundle built at run time', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-assets-'));
    try {
      fs.writeFileSync(path.join(dir, 'app.js'), 'console.log(1)');
      fs.writeFileSync(path.join(dir, 'styles.css'), 'body{}');
      fs.writeFileSync(path.join(dir, 'notes.txt'), 'not served');
      const assets = createWebAssets({ kind: 'dir', dir });
      expect((await assets.get('app.js'))?.body.toString()).toBe('console.log(1)');
      expect((await assets.get('styles.css'))?.type).toBe('text/css; charset=utf-8');
      expect(await assets.get('notes.txt')).toBeUndefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
