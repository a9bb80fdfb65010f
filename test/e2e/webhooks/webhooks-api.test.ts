import { afterBeta, call, useApi } from '../../support/api-harness';
import { issueTestKey } from '../../support/access-keys';
import { expectConforms } from '../../support/contract';
import { createTargetHostCheck } from '../../../clients/webhooks/target-host-check';
import { systemResolve, type ResolvedAddress } from '../../../clients/webhooks/webhook-http-client';
import { createSubscriptionStore } from '../../../db/webhooks/subscription-store';
import { EVENT_KINDS, type EventKind } from '../../../domain/webhooks/event-kinds';

/**
 * The four webhook operations through HTTP, every body validated against openapi.yaml: Pro and up, the secret shown
 * once and stored encrypted, 422 for bad URLs and unknown kinds, a key sees and deletes only its own, and the latest
 * delivery attempts across the caller's webhooks.
 */
// Names as an /etc/hosts file or a DNS zone would answer them; every other name resolves as the system does.
const HOSTS: Record<string, ResolvedAddress[]> = {
  'internal.example.com': [{ address: '127.0.0.1', family: 4 }],
  'v6loop.example.com': [{ address: '::1', family: 6 }],
  'mixed.example.com': [
    { address: '93.184.215.14', family: 4 },
    { address: '10.1.2.3', family: 4 },
  ],
  'public.example.com': [{ address: '93.184.215.14', family: 4 }],
};
const resolve = async (host: string) => HOSTS[host] ?? systemResolve(host);
const { t, api } = useApi({
  env: { ...afterBeta(), WEBHOOK_MAX_PER_KEY: '3' },
  overrides: { webhooks: { checkHost: createTargetHostCheck({ resolve, timeoutMs: 2000 }) } },
});

let pro: Awaited<ReturnType<typeof issueTestKey>>;
let other: Awaited<ReturnType<typeof issueTestKey>>;
beforeAll(async () => {
  pro = await issueTestKey(t.db, 'pro');
  other = await issueTestKey(t.db, 'enterprise');
});

const post = (body: unknown, headers: Record<string, string> = pro.bearer) =>
  call(`${api.url}/api/v1/webhooks`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const get = (path: string, headers: Record<string, string> = pro.bearer) => call(`${api.url}${path}`, { headers });

describe('POST /api/v1/webhooks', () => {
  it('creates a subscription and shows its secret once; the row holds only ciphertext', async () => {
    const r = await post({ url: 'https://hooks.example.com/in', events: 'signal,grad_prob' });
    expect(r.status).toBe(201);
    expectConforms('post', '/api/v1/webhooks', 201, r.body);
    expect(r.body).toMatchObject({ url: 'https://hooks.example.com/in', events: 'signal,grad_prob', active: true, consecutive_failures: 0 });
    expect(r.body.event_kinds).toEqual(['signal_act', 'signal_watch', 'signal_scout', 'grad_prob']);
    expect(r.body.secret).toMatch(/^whsec_/);
    const row = await t.db('webhook_subscriptions').where({ id: r.body.id }).first();
    expect(row.secret_sealed).not.toContain(r.body.secret.slice(6, 20));
    expect(JSON.stringify(row)).not.toContain(r.body.secret);

    const list = await get('/api/v1/webhooks');
    expect(list.status).toBe(200);
    expectConforms('get', '/api/v1/webhooks', 200, list.body);
    expect(JSON.stringify(list.body)).not.toContain(r.body.secret);
    expect(list.body.webhooks[0]).not.toHaveProperty('secret');
  });

  it('stores events "*" as "*" and matches it at delivery, so a kind added later reaches it', async () => {
    const own = await issueTestKey(t.db, 'pro');
    const r = await post({ url: 'https://hooks.example.com/all', events: '*' }, own.bearer);
    expect(r.status).toBe(201);
    expectConforms('post', '/api/v1/webhooks', 201, r.body);
    // Shown as what it delivers today; stored as the wildcard itself.
    expect(r.body).toMatchObject({ events: '*', event_kinds: [...EVENT_KINDS] });
    expect((await t.db('webhook_subscriptions').where({ id: r.body.id }).first()).event_kinds).toEqual(['*']);
    const narrow = await post({ url: 'https://hooks.example.com/narrow', events: 'grad_prob' }, own.bearer);
    const store = createSubscriptionStore(t.db);
    const matching = async (kind: string) => store.pageMatching(kind as EventKind, own.id, 0, 100, new Date());
    // A kind this build does not know yet, as a later release would add it: the wildcard gets it, a list does not.
    expect(await matching('launch_spotted')).toEqual([r.body.id]);
    expect(await matching('grad_prob')).toEqual([r.body.id, narrow.body.id]);
  });

  it('resolves a host name at registration: a name for a loopback or private address is 422, a public one 201', async () => {
    const own = await issueTestKey(t.db, 'pro');
    for (const url of ['https://internal.example.com/x', 'https://v6loop.example.com/x', 'https://mixed.example.com/x', 'https://localhost./x']) {
      const r = await post({ url, events: '*' }, own.bearer);
      expect([url, r.status]).toEqual([url, 422]);
      expectConforms('post', '/api/v1/webhooks', 422, r.body);
      expect(r.body.detail[0].loc).toEqual(['body', 'url']);
    }
    const ok = await post({ url: 'https://public.example.com/x', events: '*' }, own.bearer);
    expect(ok.status).toBe(201);
    // A public IPv6 literal is as good a target as a public IPv4 one; the special v6 ranges are not.
    const v6 = await post({ url: 'https://[2606:4700:4700::1111]:8443/hook', events: '*' }, own.bearer);
    expect(v6.status).toBe(201);
    expectConforms('post', '/api/v1/webhooks', 201, v6.body);
    for (const url of ['https://[::127.0.0.1]/x', 'https://[fec0::1]/x', 'https://[::ffff:127.0.0.1]/x', 'https://[64:ff9b::a00:1]/x']) {
      const r = await post({ url, events: '*' }, own.bearer);
      expect([url, r.status]).toEqual([url, 422]);
    }
  });

  // Plain http is refused only in production (unit-tested in test/unit/webhooks, the client in webhook-http-client.test.ts).
  it.each([
    [{ url: 'https://127.0.0.1/x', events: '*' }, 'url', 'private'],
    [{ url: 'https://localhost/x', events: '*' }, 'url', 'public host'],
    [{ url: 'https://u:p@hooks.example.com/', events: '*' }, 'url', ''],
    [{ url: 'https://hooks.example.com/', events: 'grad_prob,moon' }, 'events', ''],
    [{ url: 'not a url', events: '*' }, 'url', ''],
  ])('422 for %j', async (body, field, words) => {
    const r = await post(body);
    expect(r.status).toBe(422);
    expectConforms('post', '/api/v1/webhooks', 422, r.body);
    expect(r.body.detail[0].loc).toEqual(['body', field]);
    expect(r.body.detail[0].msg).toContain(words);
  });

  it('Builder is refused (403), no key is 401; a key is capped at WEBHOOK_MAX_PER_KEY active webhooks', async () => {
    const builder = await issueTestKey(t.db, 'builder');
    expect((await post({ url: 'https://hooks.example.com/', events: '*' }, builder.bearer)).status).toBe(403);
    expect((await post({ url: 'https://hooks.example.com/', events: '*' }, {})).status).toBe(401);
    expect((await get('/api/v1/webhooks/deliveries', builder.bearer)).status).toBe(403);
    const capped = await issueTestKey(t.db, 'pro');
    for (let i = 0; i < 3; i++) expect((await post({ url: `https://hooks.example.com/${i}`, events: '*' }, capped.bearer)).status).toBe(201);
    const r = await post({ url: 'https://hooks.example.com/4', events: '*' }, capped.bearer);
    expect([r.status, r.body.detail[0].loc]).toEqual([422, ['body']]);
  });
});

describe('DELETE /api/v1/webhooks/{webhook_id}', () => {
  it('deactivates, idempotently; another key gets 404 and the subscription stays active for its owner', async () => {
    const created = (await post({ url: 'https://hooks.example.com/del', events: '*' })).body;
    const del = (id: number, headers = pro.bearer) => call(`${api.url}/api/v1/webhooks/${id}`, { method: 'DELETE', headers });
    const notMine = await del(created.id, other.bearer);
    expect(notMine.status).toBe(404);
    expectConforms('delete', '/api/v1/webhooks/{webhook_id}', 404, notMine.body);
    const r = await del(created.id);
    expect(r.status).toBe(200);
    expectConforms('delete', '/api/v1/webhooks/{webhook_id}', 200, r.body);
    expect(r.body).toMatchObject({ id: created.id, active: false, deactivated_reason: 'deleted' });
    const again = await del(created.id);
    expect(again.body).toEqual(r.body);
    expect((await del(999_999)).status).toBe(404);
    expect((await del(0)).status).toBe(422);
  });
});

describe('GET /api/v1/webhooks/deliveries', () => {
  it("lists the caller's latest attempts, newest first, limited; never another key's", async () => {
    const mine = (await post({ url: 'https://hooks.example.com/d', events: '*' })).body;
    const theirs = (await post({ url: 'https://hooks.example.com/d', events: '*' }, other.bearer)).body;
    const at = new Date('2026-11-24T10:00:00Z');
    const attempt = (webhookId: number, keyId: number, n: number, state: string, statusCode: number | null) => ({
      webhook_id: webhookId,
      key_id: keyId,
      outbox_id: 1,
      event_id: 'evt_1',
      event_kind: 'signal_act',
      attempt: n,
      state,
      status_code: statusCode,
      error: statusCode === 200 ? null : statusCode === null ? 'timeout after 10000 ms' : `HTTP ${statusCode}`,
      duration_ms: 12,
      attempted_at: new Date(at.getTime() + n * 1000),
      delivered_at: statusCode === 200 ? at : null,
      next_retry_at: state === 'retrying' ? new Date(at.getTime() + 5000) : null,
    });
    await t
      .db('webhook_deliveries')
      .insert([attempt(mine.id, pro.id, 1, 'retrying', null), attempt(mine.id, pro.id, 2, 'retrying', 500), attempt(mine.id, pro.id, 3, 'succeeded', 200)]);
    await t.db('webhook_deliveries').insert(attempt(theirs.id, other.id, 1, 'succeeded', 200));

    const r = await get('/api/v1/webhooks/deliveries?limit=2');
    expect(r.status).toBe(200);
    expectConforms('get', '/api/v1/webhooks/deliveries', 200, r.body);
    expect(r.body.deliveries.map((d: { attempt: number; state: string }) => [d.attempt, d.state])).toEqual([
      [3, 'succeeded'],
      [2, 'retrying'],
    ]);
    expect(r.body.deliveries[1]).toMatchObject({ webhook_id: mine.id, status_code: 500, error: 'HTTP 500', event_kind: 'signal_act' });
    const all = await get('/api/v1/webhooks/deliveries');
    expect(all.body.count).toBe(3);
    expect((await get('/api/v1/webhooks/deliveries?limit=501')).status).toBe(422);
  });
});
