import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import YAML from 'yaml';
import { API_SPEC_PATH } from '../../../api/api-spec';
import { serveMetrics } from '../../../platform/metrics-server';
import { call, useApi } from '../../support/api-harness';
import { typedApi } from '../../support/typed-api';

/*
 * HEAD, OPTIONS, a method a path does not take, routes outside openapi.yaml and /metrics are below or beside the
 * typed client (which speaks the documented operations only): raw fetch. The requests counted by route go through it.
 */
let metricsServer: Server;
let metricsUrl: string;

const { api } = useApi();
beforeAll(async () => {
  // The operator port, as api/server.ts serves it.
  metricsServer = serveMetrics(api.deps.metrics.registry, '127.0.0.1', 0);
  await new Promise((r) => metricsServer.once('listening', r));
  metricsUrl = `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}/metrics`;
});
afterAll(async () => {
  await new Promise((r) => metricsServer.close(r));
});

const doc = YAML.parse(fs.readFileSync(API_SPEC_PATH, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
/** Every GET operation, with its path parameters filled with well-formed values. */
const FILL: Record<string, string> = {
  mint: 'So11111111111111111111111111111111111111112',
  address: 'So11111111111111111111111111111111111111112',
  wallet: 'So11111111111111111111111111111111111111112',
  short: 'So1111111111',
  prediction_id: '1',
  webhook_id: '1',
  memo: 'lp-1111111111111111111111',
  link_id: 'AAAAAAAAAAAAAAAAAAAAAA',
  market: 'SOL-PERP',
};
const GETS = Object.keys(doc.paths)
  .filter((p) => doc.paths[p]!.get)
  .map((p) => [p, p.replace(/\{(\w+)\}/g, (_m, n: string) => FILL[n] ?? 'x')] as const);

describe('HEAD is GET without a body, on every GET operation', () => {
  it.each(GETS)('HEAD %s', async (_template, path) => {
    const get = await fetch(`${api.url}${path}`, { headers: { 'accept-encoding': 'identity' } });
    const getBody = await get.arrayBuffer();
    const head = await fetch(`${api.url}${path}`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
    expect(head.status).toBe(get.status);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    // Same headers as GET (a body whose length varies, like /api/status's uptime, may differ by a digit).
    expect(Math.abs(Number(head.headers.get('content-length')) - getBody.byteLength)).toBeLessThanOrEqual(3);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });
});

describe('OPTIONS answers 204 with Allow', () => {
  it.each(GETS)('OPTIONS %s', async (template, path) => {
    const r = await fetch(`${api.url}${path}`, { method: 'OPTIONS' });
    expect(r.status).toBe(204);
    const allow = r.headers.get('allow')!.split(/,\s*/);
    const declared = Object.keys(doc.paths[template]!).map((m) => m.toUpperCase());
    expect(allow.sort()).toEqual([...new Set([...declared, 'HEAD', 'OPTIONS'])].sort());
    expect(await r.text()).toBe('');
  });

  it('on the docs and the raw document too', async () => {
    for (const path of ['/docs', '/openapi.yaml']) {
      const r = await fetch(`${api.url}${path}`, { method: 'OPTIONS' });
      expect(r.status).toBe(204);
      expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    }
  });

  it('a method the path does not take is a 405 whose Allow names them in upper case', async () => {
    const r = await call(`${api.url}/api/health`, { method: 'POST' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(r.body).toMatchObject({ error: 'method_not_allowed' });
  });
});

describe('the JSON 404 everywhere', () => {
  it.each(['/docs/nope', '/docs/assets/nope.js', '/openapi.yaml/more', '/api/nope', '/nope', '/metrics'])('GET %s', async (path) => {
    const r = await call(`${api.url}${path}`);
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.body).toMatchObject({ error: 'not_found' });
  });
});

describe('/metrics is served on the operator port only, with bounded labels', () => {
  const series = async () => {
    const text = await (await fetch(metricsUrl)).text();
    return text.split('\n').filter((l) => l.startsWith('http_request_duration_seconds_count{'));
  };

  it('counts requests by route template', async () => {
    const http = typedApi(api.url);
    expect((await http.GET('/api/scope')).response.status).toBe(200);
    expect((await http.GET('/api/predictions/by_mint/{mint}', { params: { path: { mint: FILL.mint! } } })).response.status).toBe(404);
    const s = await series();
    expect(s.some((l) => l.includes('route="/api/scope"'))).toBe(true);
    expect(s.some((l) => l.includes('route="/api/predictions/by_mint/{mint}"'))).toBe(true);
  });

  it('random paths and case variants add no series', async () => {
    // Each kind of answer once: the series these add are bounded by the routes and statuses there are.
    for (const p of [
      '/openapi.yaml',
      '/OPENAPI.yaml',
      '/OpenApi.Yaml',
      '/docs',
      '/DOCS',
      '/nope',
      '/x/y/z',
      '/docs/assets/missing.js',
      `/api/v1/probe/${'1'.repeat(32)}`,
    ]) {
      await fetch(`${api.url}${p}`);
    }
    const beforeLines = (await series()).map((l) => l.replace(/\} \d+$/, '}'));
    const before = beforeLines.length;
    for (let i = 0; i < 50; i++) {
      await fetch(`${api.url}/random-${i}-${Math.random().toString(36).slice(2)}`);
      await fetch(`${api.url}/OPENAPI.YAML`.replace(/A/g, i % 2 ? 'a' : 'A') + `?v=${i}`);
      await fetch(`${api.url}/docs/assets/missing-${i}.js`);
      await fetch(`${api.url}/api/v1/probe/${'1'.repeat(32 + (i % 10))}`);
      await fetch(
        `${api.url}/${'DoCs'
          .split('')
          .map((c, j) => ((i >> j) & 1 ? c.toUpperCase() : c.toLowerCase()))
          .join('')}`,
      );
    }
    const after = await series();
    expect({ added: after.filter((l) => !beforeLines.includes(l.replace(/\} \d+$/, '}'))) }).toEqual({ added: [] });
    expect(after.length).toBe(before);
    const routes = new Set((await series()).map((l) => /route="([^"]*)"/.exec(l)?.[1] ?? ''));
    // Only templates: the spec's paths, the few routes outside it, and `unmatched`.
    const known = new Set([...Object.keys(doc.paths), '/docs', '/docs/assets', '/openapi.yaml', '/livez', '/pay/:memo', 'unmatched']);
    expect([...routes].filter((r) => !known.has(r))).toEqual([]);
  });
});

describe('contract of the new answers', () => {
  it('/livez answers without touching anything', async () => {
    const r = await call(`${api.url}/livez`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'alive', uptime_s: expect.any(Number) });
  });
});
