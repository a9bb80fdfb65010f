import fs from 'node:fs';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import YAML from 'yaml';
import { API_SPEC_PATH } from '../../../api/api-spec';
import { issueTestKey } from '../../support/access-keys';
import { afterBeta, useApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { rawRequest } from '../../support/raw-http';

/**
 * The cheap refusal (api/http/param-refusal.ts) answers bad query and path parameters of every GET operation with
 * the bytes the Express app sends (express-openapi-validator, strictNumbers, the error handler), without entering
 * Express. One app behind two servers: `http.createServer(app)` (Express only) and the server `app.listen` makes.
 * The bad inputs are derived from each parameter's schema in openapi.yaml; valid inputs must reach the app unchanged.
 */
const { t, api } = useApi({ env: { ...afterBeta(), API_QUOTA_LEASE_MIN_HEADROOM: '1000000000' } });
let viaExpress: Server;
let expressPort = 0;
let handle: jest.SpyInstance;
beforeAll(async () => {
  handle = jest.spyOn(api.app as unknown as { handle: (...args: unknown[]) => void }, 'handle');
  viaExpress = http.createServer(api.app);
  await new Promise<void>((resolve) => viaExpress.listen(0, '127.0.0.1', resolve));
  expressPort = (viaExpress.address() as AddressInfo).port;
});
afterAll(async () => {
  viaExpress.closeAllConnections();
  await new Promise((resolve) => viaExpress.close(resolve));
});

type Schema = {
  type?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  enum?: string[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  $ref?: string;
};
type Param = { name: string; in: string; required?: boolean; schema: Schema; $ref?: string };
const doc = YAML.parse(fs.readFileSync(API_SPEC_PATH, 'utf8'));
const deref = <T>(x: T & { $ref?: string }): T =>
  x.$ref
    ? deref(
        x.$ref
          .split('/')
          .slice(1)
          .reduce((o: any, k) => o[k], doc),
      )
    : x;

/** Values the contract refuses for a parameter of this schema (each one plain text, as clients type it). */
function badValues(s: Schema): string[] {
  if (s.type === 'integer')
    return [
      'abc',
      '1.5',
      '1e1',
      '0x10',
      '',
      ...(s.minimum !== undefined ? [String(s.minimum - 1)] : []),
      ...(s.maximum !== undefined && s.maximum < 1e9 ? [String(s.maximum + 1)] : []),
    ];
  if (s.type === 'number')
    return [
      'abc',
      'Infinity',
      '.',
      '',
      ...(s.minimum !== undefined ? [String(s.minimum - 1)] : []),
      ...(s.maximum !== undefined ? [String(s.maximum + 1)] : []),
    ];
  if (s.type === 'boolean') return ['maybe', '2'];
  if (s.enum) return ['bogus', ''];
  const refused = (v: string) =>
    (s.pattern !== undefined && !new RegExp(s.pattern).test(v)) || v.length < (s.minLength ?? 0) || v.length > (s.maxLength ?? Infinity);
  if (s.pattern || s.minLength) return ['x', '~~~', 'a'.repeat(65)].filter(refused);
  return [];
}
/** A value the contract accepts. */
function goodValue(s: Schema): string {
  if (s.default !== undefined) return String(s.default);
  if (s.enum) return s.enum[0]!;
  if (s.type === 'integer' || s.type === 'number') return String(Math.max(1, s.minimum ?? 1));
  if (/0x/.test(s.pattern ?? '')) return `0x${'a'.repeat(40)}`;
  return '9'.repeat(/\{32,44\}/.test(s.pattern ?? '') ? 32 : 12);
}

type Case = { op: string; url: string };
const cases: Case[] = [];
const valid: Case[] = [];
for (const [path, item] of Object.entries(doc.paths as Record<string, any>)) {
  const op = item.get;
  if (!op) continue;
  const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Param) => deref<Param>(p)).filter((p) => p.in === 'query' || p.in === 'path');
  if (!params.length) continue;
  const fill = (over: Record<string, string>) =>
    path.replace(/\{([^}]+)\}/g, (_, n: string) => over[n] ?? goodValue(deref<Schema>(params.find((p) => p.name === n)!.schema)));
  const query = (pairs: [string, string][]) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : '');
  for (const p of params) {
    for (const v of badValues(deref<Schema>(p.schema))) {
      if (p.in === 'path' && v === '') continue;
      cases.push({ op: path, url: p.in === 'path' ? fill({ [p.name]: v }) : fill({}) + query([[p.name, v]]) });
    }
  }
  const queryParams = params.filter((p) => p.in === 'query');
  // An unknown parameter, and every query parameter wrong at once (one 422 listing each).
  cases.push({ op: path, url: fill({}) + query([['nope', '1']]) });
  if (queryParams.length > 1) cases.push({ op: path, url: fill({}) + query(queryParams.map((p) => [p.name, 'zzz'] as [string, string])) });
  valid.push({ op: path, url: fill({}) + query(queryParams.map((p) => [p.name, goodValue(deref<Schema>(p.schema))])) });
}

async function both(url: string, headerLines: string[] = []) {
  const app = await rawRequest(expressPort, 'GET', url, headerLines);
  const calls = handle.mock.calls.length;
  const fast = await rawRequest(Number(new URL(api.url).port), 'GET', url, headerLines);
  return { app, fast, enteredExpress: handle.mock.calls.length > calls };
}
const comparable = (r: { status: number; headers: Record<string, string>; body: string }) => ({
  status: r.status,
  headers: Object.entries(r.headers).filter(([k]) => k !== 'date' && k !== 'x-ratelimit-reset'),
  body: r.body,
});

describe('bad parameters refused before Express, byte for byte as the app refuses them', () => {
  it('covers every GET operation with query or path parameters', () => {
    // A path the validator matches case-insensitively is refused as it refuses it.
    cases.push({ op: '/api/v1/signals', url: '/API/V1/Signals?limit=0' });
    expect(new Set(cases.map((c) => c.op)).size).toBeGreaterThanOrEqual(20);
  });

  it.each(['no key', 'an unknown key', 'a valid key'])(
    'each bad input, with %s: the same 422 (status, headers, body) without entering Express',
    async (who) => {
      const headerLines =
        who === 'no key'
          ? []
          : who === 'an unknown key'
            ? ['Authorization: Bearer lp_live_unknownunknownunknown']
            : [`Authorization: Bearer ${(await issueTestKey(t.db, 'enterprise')).plaintext}`];
      for (const c of cases) {
        const r = await both(c.url, headerLines);
        expect([c.url, comparable(r.fast)]).toEqual([c.url, comparable(r.app)]);
        expect([c.url, r.app.status]).toEqual([c.url, 422]);
        expectConforms('get', c.op, 422, JSON.parse(r.app.body));
        expect([c.url, r.enteredExpress]).toEqual([c.url, false]);
      }
    },
  );

  it('valid inputs, and inputs the checks could read differently from the app, go on to the app unchanged', async () => {
    const k = await issueTestKey(t.db, 'enterprise');
    for (const c of valid) {
      const r = await both(c.url, [`Authorization: Bearer ${k.plaintext}`]);
      expect([c.url, r.enteredExpress || r.fast.status !== 422]).toEqual([c.url, true]);
      expect([c.url, r.fast.status]).toEqual([c.url, r.app.status]);
    }
    // (Not /api/v1/live: the keyed reads answer it before Express too, after the app's own validation.)
    const unread = [
      '/api/v1/signals?limit=%30',
      '/api/v1/signals?limit=1&limit=2',
      '/api/v1/signals?limit=+1',
      '/api/v1/signals?limit[a]=1',
      '/api/wallet/%2F',
      '/api/v1/wallet/LINK',
    ];
    for (const url of unread) {
      const r = await both(url);
      expect([url, r.enteredExpress]).toEqual([url, true]);
      expect([url, comparable(r.fast)]).toEqual([url, comparable(r.app)]);
    }
  });
});
