import fs from 'node:fs';
import zlib from 'node:zlib';
import YAML from 'yaml';
import { API_SPEC_PATH } from '../../../api/api-spec';
import { createLogger } from '../../../platform/logger';
import { call, useApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { testWallet } from '../../support/test-wallet';

/**
 * Client mistakes get 4xx JSON in the spec's shapes, never a 5xx, never HTML, never a stack, never an echoed
 * secret; and none of them logs at error level. Raw HTTP throughout, not the typed client: every request here is
 * input its types forbid or cannot express (broken JSON, wrong encodings, hand-written query strings such as
 * `limit=0x10` or `min_prob=.5`); each answer it asserts a contract on is checked with `expectConforms`.
 */
const logLines: string[] = [];

const { api } = useApi({ log: createLogger('info', 'api-test', { write: (s: string) => void logLines.push(s) }) });

/** Every POST operation of the spec (body-reading happens before routing, auth and validation). */
const POSTS = ['/api/keys/new', '/api/upgrade', '/api/signup/wallet/init', '/api/signup/wallet/sign', '/api/v1/wallet/link', '/api/v1/webhooks'];

const post = (path: string, body: Buffer | string, headers: Record<string, string> = {}) =>
  call(`${api.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

function expectNoLeak(r: { status: number; headers: Headers; body: unknown }) {
  expect(r.status).toBeLessThan(500);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  const text = JSON.stringify(r.body);
  expect(text).not.toMatch(/node_modules|\/work\/|\bat [\w.<>]+ \(|Error:/);
}

const errorLines = () => logLines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level >= 50);

describe('a malformed Content-Encoding on any POST', () => {
  const junk = Buffer.from('{"this": "is not compressed at all"}');
  it.each(POSTS)('%s: a body that is not valid gzip, deflate or br is a 422 on the body', async (path) => {
    for (const enc of ['gzip', 'deflate', 'br', 'GZIP']) {
      const r = await post(path, junk, { 'content-encoding': enc });
      expectNoLeak(r);
      expect(r.status).toBe(422);
      expectConforms('post', path, 422, r.body);
      expect(r.body.detail).toEqual([expect.objectContaining({ loc: ['body'], type: 'content_encoding_invalid' })]);
    }
    // Cut short: a valid gzip stream missing its end.
    const cut = zlib.gzipSync(Buffer.from('{"tier":"pro"}')).subarray(0, 12);
    const r = await post(path, cut, { 'content-encoding': 'gzip' });
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ['body'], type: 'content_encoding_invalid' });
  });

  it.each(POSTS)('%s: an encoding the API does not decode is a 415 naming the ones it does', async (path) => {
    for (const enc of ['x-custom', 'compress', 'zstd', 'gzip, br']) {
      const r = await post(path, junk, { 'content-encoding': enc });
      expectNoLeak(r);
      expect(r.status).toBe(415);
      expectConforms('post', path, 415, r.body);
      expect(r.body.error).toBe('unsupported_content_encoding');
      expect(r.headers.get('accept-encoding')).toBe('gzip, deflate, br');
    }
  });

  it('a correctly compressed body is read as usual', async () => {
    const r = await post('/api/keys/new', zlib.gzipSync('{}'), { 'content-encoding': 'gzip' });
    expect(r.status).toBe(402);
    const br = await post('/api/keys/new', zlib.brotliCompressSync('{}'), { 'content-encoding': 'br' });
    expect(br.status).toBe(402);
  });

  it('a body that inflates past the size limit is a 413', async () => {
    const r = await post('/api/keys/new', zlib.gzipSync(Buffer.alloc(5_000_000, 32)), { 'content-encoding': 'gzip' });
    expectNoLeak(r);
    expect(r.status).toBe(413);
    expectConforms('post', '/api/keys/new', 413, r.body);
  });
});

/** Numeric query and path parameters of every operation, read from the spec. */
type Param = { method: string; path: string; name: string; in: 'query' | 'path'; type: 'integer' | 'number' };
function numericParameters(): Param[] {
  const doc = YAML.parse(fs.readFileSync(API_SPEC_PATH, 'utf8'));
  const out: Param[] = [];
  for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      for (let p of op.parameters ?? []) {
        if (p.$ref) p = doc.components.parameters[p.$ref.split('/').pop()];
        if (p.schema?.type === 'integer' || p.schema?.type === 'number') out.push({ method, path, name: p.name, in: p.in, type: p.schema.type });
      }
    }
  }
  return out;
}

describe('non-finite and malformed numbers are 422 on every numeric parameter', () => {
  const params = numericParameters();
  const NOT_NUMBERS = [
    'Infinity',
    '-Infinity',
    '1e309',
    '-1e309',
    `1${'0'.repeat(400)}`,
    'NaN',
    '0x10',
    '0b11',
    '0o7',
    ' 5',
    '5 ',
    '+5',
    '1_0',
    '5.',
    'one',
    '٣',
  ];
  const NOT_INTEGERS = ['1e1', '5.0', '2.5'];

  it('finds the numeric parameters (limit, min_prob, since, offset, ids, …)', () => {
    expect(params.length).toBeGreaterThan(20);
    expect(params).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/api/v1/runners', name: 'limit' }),
        expect.objectContaining({ in: 'path', name: 'prediction_id' }),
      ]),
    );
  });

  const example = (p: Param, v: string) => {
    const path = p.path.replace(/\{(\w+)\}/g, (_m, n: string) => (n === p.name ? encodeURIComponent(v) : '1'));
    return p.in === 'query' ? `${path}?${p.name}=${encodeURIComponent(v)}` : path;
  };

  it.each(numericParameters().map((p) => [`${p.method.toUpperCase()} ${p.path} ${p.in}.${p.name}`, p] as const))('%s', async (_label, p) => {
    const bad = p.type === 'integer' ? [...NOT_NUMBERS, ...NOT_INTEGERS] : NOT_NUMBERS;
    for (const v of bad) {
      const r = await call(`${api.url}${example(p, v)}`, { method: p.method.toUpperCase() });
      expectNoLeak(r);
      if (r.status !== 422) throw new Error(`${p.name}=${JSON.stringify(v)} answered ${r.status}: ${JSON.stringify(r.body)}`);
      expectConforms(p.method, p.path, 422, r.body);
      const item = r.body.detail.find((d: { loc: unknown[] }) => d.loc[0] === p.in && d.loc[1] === p.name);
      // Echoed as sent (cut at 256 characters).
      expect(item).toMatchObject({ type: p.type === 'integer' ? 'int_parsing' : 'float_parsing', input: v.length > 256 ? `${v.slice(0, 256)}…` : v });
    }
  });

  it('an empty value is a 422 too', async () => {
    const r = await call(`${api.url}/api/v1/runners?limit=`);
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['query', 'limit']);
  });

  it('Infinity no longer slips past a maximum: /api/v1/runners?limit=Infinity is a 422, not a 500', async () => {
    const r = await call(`${api.url}/api/v1/runners?limit=Infinity&min_prob=1e309`);
    expect(r.status).toBe(422);
    expect(r.body.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([
      ['query', 'limit'],
      ['query', 'min_prob'],
    ]);
  });

  it('well-formed numbers still pass, and a bad one is listed beside every other bad parameter', async () => {
    const ok = await call(`${api.url}/api/v1/live?limit=5&min_prob=.5`);
    expect(ok.status).not.toBe(422);
    const sci = await call(`${api.url}/api/v1/live?min_prob=5e-1`);
    expect(sci.status).not.toBe(422);
    const both = await call(`${api.url}/api/v1/runners?limit=0x10&tier=7x`);
    expect(both.status).toBe(422);
    expect(both.body.detail.map((d: { loc: unknown[] }) => d.loc[1]).sort()).toEqual(['limit', 'tier']);
  });
});

describe('huge and deep inputs', () => {
  const deepArray = (n: number) => '['.repeat(n) + ']'.repeat(n);
  const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

  it('JSON nested 5,000 deep is a JSON 422 without a stack, server paths or the value', async () => {
    for (const [path, body] of [
      ['/api/upgrade', `{"tier":${deepArray(5000)}}`],
      ['/api/upgrade', deepObject(5000)],
      ['/api/keys/new', `{"x":${deepObject(5000)}}`],
      ['/api/signup/wallet/init', `{"wallet":${deepArray(5000)},"tier":"api"}`],
    ] as const) {
      const r = await post(path, body);
      expectNoLeak(r);
      expect(r.status).toBe(422);
      expectConforms('post', path, 422, r.body);
      expect(JSON.stringify(r.body).length).toBeLessThan(2000);
    }
  });

  it('a long string is echoed cut short; a large object is not echoed', async () => {
    const r = await post('/api/upgrade', JSON.stringify({ tier: 'x'.repeat(20_000) }));
    expect(r.status).toBe(422);
    expectConforms('post', '/api/upgrade', 422, r.body);
    const item = r.body.detail.find((d: { loc: unknown[] }) => d.loc[1] === 'tier');
    expect(typeof item.input).toBe('string');
    expect(item.input.length).toBeLessThanOrEqual(257);
    const big = await post('/api/signup/wallet/init', JSON.stringify({ wallet: Array.from({ length: 2000 }, (_, i) => i), tier: 'api' }));
    expect(big.status).toBe(422);
    expect(big.body.detail.find((d: { loc: unknown[] }) => d.loc[1] === 'wallet').input).toBeUndefined();
  });

  it('a long unknown query parameter name is not echoed whole', async () => {
    const name = 'q'.repeat(5000);
    const r = await call(`${api.url}/api/v1/live?${name}=1`);
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body).length).toBeLessThan(2000);
  });
});

describe('an unknown query parameter', () => {
  // Every GET without path parameters, read from the spec: each documents the 422 it answers (a parameterless
  // page included: `?verbose=1` is a mistake the client should hear about, not silently ignored).
  const doc = YAML.parse(fs.readFileSync(API_SPEC_PATH, 'utf8'));
  const gets = Object.entries<Record<string, any>>(doc.paths)
    .filter(([path, ops]) => ops.get && !path.includes('{'))
    .map(([path]) => path);
  it.each(gets)('%s answers the documented 422 naming it', async (path) => {
    const r = await call(`${api.url}${path}?verbose_typo=1`);
    expect([path, r.status]).toEqual([path, 422]);
    expectConforms('get', path, 422, r.body);
    expect(r.body.detail).toEqual([expect.objectContaining({ loc: ['query', 'verbose_typo'] })]);
  });
});

describe('secrets are never echoed', () => {
  it('keys, signatures and secrets are left out of `input`, wherever the error points', async () => {
    const key = `lp_live_${'a'.repeat(12)}_${'S'.repeat(200)}`;
    const cases: [string, Record<string, unknown>][] = [
      ['/api/upgrade', { key }],
      ['/api/upgrade', { key: 12345 }],
      ['/api/upgrade', { key: `lp_live_abc_${'s'.repeat(40)}`, tier: { nested: `lp_live_abc_${'s'.repeat(40)}` } }],
      ['/api/signup/wallet/init', { wallet: { key: 'sssssssssssss' }, tier: 'api' }],
      ['/api/signup/wallet/sign', { link_id: 'a'.repeat(22), signature: 'not base58 0OIl secret-ish signature value that is long enough to pass length' }],
      ['/api/v1/wallet/link', { wallet: testWallet().address, key_prefix: 'lp_live_abc', signature_b58: '0OIl secret signature' }],
    ];
    for (const [path, body] of cases) {
      const r = await post(path, JSON.stringify(body));
      expect(r.status).toBe(422);
      expectConforms('post', path, 422, r.body);
      const text = JSON.stringify(r.body);
      expect(text).not.toContain('SSSSSSSSSS');
      expect(text).not.toContain('ssssssssss');
      expect(text).not.toContain('secret');
      expect(text).not.toContain('12345');
    }
  });
});

describe('no error path answers HTML', () => {
  it.each([
    ['GET', '/docs/nope'],
    ['GET', '/docs/assets/nope.js'],
    ['GET', '/docs/assets/%E0%A4%A'],
    ['GET', '/api/v1/probe/%E0%A4%A'],
    ['GET', '/openapi.yaml/x'],
    ['GET', '/nope'],
    ['DELETE', '/docs'],
    ['POST', '/'],
    ['PUT', '/api/live'],
  ])('%s %s', async (method, path) => {
    const r = await call(`${api.url}${path}`, { method });
    expectNoLeak(r);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(typeof r.body).toBe('object');
    if (r.status === 404) expect(r.body).toMatchObject({ error: 'not_found' });
  });
});

describe('the log', () => {
  it('records none of the client mistakes above at error level', () => {
    expect(errorLines()).toEqual([]);
  });
});
