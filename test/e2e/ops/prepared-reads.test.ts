import { createHeartbeatStore } from '../../../db/ops/heartbeat-store';
import { useApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';

/**
 * The slowly changing public reads with their TTL on, as in production (the other tests rebuild them per request).
 * Raw fetch, not the typed client: the test compares bytes and headers of answers made before and by the app, and
 * sends a query parameter the types forbid; the 200 bodies it asserts on are checked against openapi.yaml here.
 */
const TTL_MS = 1500;
const { t, api } = useApi({ env: { API_READ_CACHE_TTL_MS: String(TTL_MS) } });

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(api.url + path, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
};
const HEADERS = ['content-type', 'content-length', 'etag', 'cache-control'];
const headersOf = (h: Headers) => Object.fromEntries(HEADERS.map((n) => [n, h.get(n)]));

describe('prepared public reads', () => {
  it('answer the same bytes and headers from memory (before the app) as the app did, with ETag/304', async () => {
    const first = await get('/api/scope'); // built and sent by the app
    const second = await get('/api/scope'); // fresh in memory: answered before the app
    expect(first.status).toBe(200);
    expectConforms('get', '/api/scope', 200, JSON.parse(second.text));
    expect(second.text).toBe(first.text);
    expect(headersOf(second.headers)).toEqual(headersOf(first.headers));
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(first.headers.get('cache-control')).toBe('public, max-age=60');

    const etag = first.headers.get('etag')!;
    const notModified = await get('/api/scope', { 'If-None-Match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
    expect(notModified.headers.get('etag')).toBe(etag);
  });

  it('still send a query string through validation (an unknown parameter is a 422), and HEAD through the app', async () => {
    await get('/api/health');
    const bad = await get('/api/health?verbose=1');
    expect(bad.status).toBe(422);
    expect(JSON.parse(bad.text).detail[0].loc).toEqual(['query', 'verbose']);
    const head = await fetch(api.url + '/api/health', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('read the database once per TTL: a change shows after the TTL, not before', async () => {
    const before = await get('/api/status');
    expectConforms('get', '/api/status', 200, JSON.parse(before.text));
    expect(JSON.parse(before.text).daemons.find((d: { name: string }) => d.name === 'worker').state).not.toBe('up');
    const at = new Date();
    await createHeartbeatStore(t.db).beat('worker', 'w-1', at, at);
    expect((await get('/api/status')).text).toBe(before.text);
    await new Promise((r) => setTimeout(r, TTL_MS + 100));
    const after = JSON.parse((await get('/api/status')).text);
    expectConforms('get', '/api/status', 200, after);
    expect(after.daemons.find((d: { name: string }) => d.name === 'worker')).toMatchObject({ state: 'up', instance: 'w-1' });
  });
});
