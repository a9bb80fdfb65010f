import fs from 'node:fs';
import YAML from 'yaml';
import { API_SPEC_PATH } from '../../../api/api-spec';
import { createApiKeyStore } from '../../../db/access/api-key-store';
import type { Tier } from '../../../domain/access/tiers';
import { writeEmptyLiveSnapshots, KEYED_REQUESTS } from '../../support/access-fixtures';
import { issueTestKey } from '../../support/access-keys';
import { afterBeta, startApi, useApi } from '../../support/api-harness';
import { typedApi } from '../../support/typed-api';
import type { ApiClient } from '../../../clients/api/api-client';

const DAY = 86_400_000;

// Spec section 8, read independently of the code's table: Free gets live (delayed), /probe and /wallet (and
// managing its own key); wallet-leaderboard discovery and webhooks start at Pro; everything else at Builder.
// The composite ledger is an audit trail: anyone may read it, so a Free key may too.
const FREE_OPS = new Set(['getV1Live', 'probeMint', 'getV1Wallet', 'linkWallet', 'getMe', 'getCompositeLedger']);
/** Audit trails answer without a key (the empty requirement in their security list); a key presented is still checked and counted. */
const KEY_OPTIONAL_OPS = new Set(['getCompositeLedger']);
const PRO_OPS = new Set(['getLeaderboard', 'createWebhook', 'listWebhooks', 'deleteWebhook', 'listWebhookDeliveries']);
const specMinTier = (op: string): Tier => (FREE_OPS.has(op) ? 'free' : PRO_OPS.has(op) ? 'pro' : 'builder');
const ORDER: Tier[] = ['free', 'builder', 'pro', 'enterprise'];

const keyedOps = (() => {
  const doc = YAML.parse(fs.readFileSync(API_SPEC_PATH, 'utf8')) as { paths: Record<string, Record<string, { operationId: string; security?: unknown[] }>> };
  return Object.values(doc.paths)
    .flatMap((p) => Object.values(p))
    .filter((o) => o.security?.length)
    .map((o) => o.operationId);
})();
const keyRequiredOps = keyedOps.filter((op) => !KEY_OPTIONAL_OPS.has(op));

type HeaderMap = Record<string, string>;
type Sent = { response: Response; data?: unknown; error?: unknown };
const link = KEYED_REQUESTS.linkWallet!.body as { wallet: string; signature_b58: string; key_prefix: string };
/** KEYED_REQUESTS' request of each keyed operation, through the typed client (every answer checked against openapi.yaml). */
const TYPED_REQUESTS: Record<string, (c: ApiClient, headers: HeaderMap) => Promise<Sent>> = {
  getV1Live: (c, headers) => c.GET('/api/v1/live', { headers }),
  probeMint: (c, headers) => c.GET('/api/v1/probe/{mint}', { params: { path: { mint: 'So11111111111111111111111111111111111111112' } }, headers }),
  getV1Wallet: (c, headers) => c.GET('/api/v1/wallet/{address}', { params: { path: { address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM' } }, headers }),
  linkWallet: (c, headers) => c.POST('/api/v1/wallet/link', { body: link, headers }),
  getMe: (c, headers) => c.GET('/api/me', { headers }),
  getSmartMoneyActive: (c, headers) => c.GET('/api/v1/smart_money_active', { headers }),
  getRunners: (c, headers) => c.GET('/api/v1/runners', { headers }),
  getSignals: (c, headers) => c.GET('/api/v1/signals', { headers }),
  getCompositePredictions: (c, headers) => c.GET('/api/v1/composite_predictions', { headers }),
  getCompositeLedger: (c, headers) => c.GET('/api/v1/composite_ledger', { headers }),
  getStats: (c, headers) => c.GET('/api/v1/stats', { headers }),
  getConditions: (c, headers) => c.GET('/api/v1/conditions', { headers }),
  getLeaderboard: (c, headers) => c.GET('/api/v1/wallets/leaderboard', { headers }),
  createWebhook: (c, headers) => c.POST('/api/v1/webhooks', { body: { url: 'https://example.com/hook', events: '*' }, headers }),
  listWebhooks: (c, headers) => c.GET('/api/v1/webhooks', { headers }),
  deleteWebhook: (c, headers) => c.DELETE('/api/v1/webhooks/{webhook_id}', { params: { path: { webhook_id: 1 } }, headers }),
  listWebhookDeliveries: (c, headers) => c.GET('/api/v1/webhooks/deliveries', { headers }),
};
const send = (op: string, headers: HeaderMap = {}) => TYPED_REQUESTS[op]!(http, headers);
/** The body of an answer, whichever side (data for 2xx, error otherwise) openapi-fetch put it on. */
const bodyOf = (r: Sent) => (r.response.ok ? r.data : r.error) as Record<string, any>;

// After the beta window: a key is required.
const { t, api } = useApi({ env: afterBeta({ endedAt: new Date(Date.now() - DAY), keyCacheTtlMs: 0 }) });
// No key of its own: each test sends the headers it is about.
const http = typedApi(() => api.url);
beforeAll(async () => {
  await writeEmptyLiveSnapshots(t.db, new Date());
});

describe('keys: 401 for a missing or invalid key', () => {
  it('every keyed operation answers 401 missing_key without a key, with a Bearer challenge', async () => {
    expect(keyedOps.length).toBe(17);
    expect(Object.keys(TYPED_REQUESTS).sort()).toEqual([...keyedOps].sort());
    for (const op of keyRequiredOps) {
      const r = await send(op);
      expect([op, r.response.status]).toEqual([op, 401]);
      expect(bodyOf(r).error).toBe('missing_key');
      expect(r.response.headers.get('www-authenticate')).toMatch(/^Bearer /);
    }
  });

  it('the composite ledger answers without a key after the beta window; a presented key is checked and counted', async () => {
    const open = await send('getCompositeLedger');
    expect(open.response.status).toBe(200);
    expect(bodyOf(open)).toMatchObject({ track: 'composite' });
    expect(open.response.headers.get('x-ratelimit-limit')).toBeNull();

    const k = await issueTestKey(t.db, 'free');
    const keyed = await send('getCompositeLedger', k.bearer);
    expect(keyed.response.status).toBe(200);
    expect(keyed.response.headers.get('x-ratelimit-remaining')).toBe('199');
    expect((await http.GET('/api/me', { headers: k.bearer })).data!.quota.used).toBe(2);
    const bad = await send('getCompositeLedger', { 'X-API-Key': `${k.prefix}_${'3'.repeat(44)}` });
    expect([bad.response.status, bodyOf(bad).error]).toEqual([401, 'invalid_key']);
  });

  // Two different keys (the revoked one beside a good one, say) answer ambiguous_key: test/e2e/access/ambiguous-keys.test.ts.
  it('malformed, unknown, revoked and non-Bearer keys answer 401 invalid_key', async () => {
    const good = await issueTestKey(t.db, 'pro');
    const revoked = await issueTestKey(t.db, 'pro');
    await createApiKeyStore(t.db).revoke(revoked.id);
    // Headers the client's own key handling never writes: sent as they are, the answers still checked.
    const cases: Record<string, string>[] = [
      { Authorization: 'Bearer nope' },
      { Authorization: `Bearer ${good.prefix}_${'3'.repeat(44)}` }, // right prefix, wrong secret
      { Authorization: `Bearer ${good.plaintext.slice(0, -1)}` },
      { Authorization: `Basic ${Buffer.from(`x:${good.plaintext}`).toString('base64')}` },
      { Authorization: good.plaintext },
      { 'X-API-Key': '' },
      { 'X-API-Key': `${good.plaintext}, ${good.plaintext}` },
      { 'X-API-Key': revoked.plaintext },
      { 'X-API-Key': 'a'.repeat(5000) },
    ];
    for (const h of cases) {
      const r = await http.GET('/api/v1/live', { headers: h });
      expect([h, r.response.status, bodyOf(r).error]).toEqual([h, 401, 'invalid_key']);
    }
  });

  it('accepts the key as Bearer (any case of the scheme) or X-API-Key, and both when they agree', async () => {
    const k = await issueTestKey(t.db, 'pro');
    for (const h of [k.bearer, k.xApiKey, { ...k.bearer, ...k.xApiKey }, { Authorization: `bearer ${k.plaintext}` }]) {
      const r = await http.GET('/api/v1/live', { headers: h });
      expect(r.response.status).toBe(200);
      expect(r.data!.delay_s).toBe(0);
    }
  });
});

describe('a valid X-API-Key beside an Authorization meant for someone else', () => {
  it('serves the X-API-Key when the Authorization is not a Bearer key of our format; two keys stay refused', async () => {
    const k = await issueTestKey(t.db, 'pro');
    const other = await issueTestKey(t.db, 'pro');
    for (const auth of [`Basic ${Buffer.from('proxy:pass').toString('base64')}`, 'Bearer some.jwt.token', 'Bearer nope', 'Digest username="x"']) {
      const r = await http.GET('/api/v1/live', { headers: { ...k.xApiKey, Authorization: auth } });
      expect([auth, r.response.status]).toEqual([auth, 200]);
    }
    const both = await http.GET('/api/v1/live', { headers: { ...k.xApiKey, ...other.bearer } });
    expect([both.response.status, bodyOf(both).error]).toEqual([401, 'ambiguous_key']);
    // Alone, a non-Bearer Authorization is still no key.
    const basic = await http.GET('/api/v1/live', { headers: { Authorization: `Basic ${Buffer.from(`x:${k.plaintext}`).toString('base64')}` } });
    expect([basic.response.status, bodyOf(basic).error]).toEqual([401, 'invalid_key']);
  });
});

describe('tiers: 403 below an operation’s tier (spec section 8)', () => {
  it.each(ORDER)('a %s key reaches exactly the operations its tier includes', async (tier) => {
    const k = await issueTestKey(t.db, tier);
    for (const op of keyedOps) {
      const r = await send(op, k.bearer);
      const required = specMinTier(op);
      if (ORDER.indexOf(tier) < ORDER.indexOf(required)) {
        expect([op, r.response.status]).toEqual([op, 403]);
        expect(bodyOf(r)).toMatchObject({ error: 'insufficient_tier', required_tier: required, current_tier: tier });
      } else {
        expect([op, r.response.status]).not.toEqual([op, 403]);
        expect([401, 429]).not.toContain(r.response.status);
        expect(r.response.headers.get('x-ratelimit-limit')).not.toBeNull();
      }
    }
  });

  it('a refused (403) call is not counted', async () => {
    const k = await issueTestKey(t.db, 'free');
    expect((await send('getStats', k.bearer)).response.status).toBe(403);
    const me = await http.GET('/api/me', { headers: k.bearer });
    expect(me.data!.quota.used).toBe(1); // the /api/me call itself
  });

  it('Free keys get the live list 5 minutes delayed; paid tiers in real time', async () => {
    const free = await issueTestKey(t.db, 'free');
    const builder = await issueTestKey(t.db, 'builder');
    const f = (await http.GET('/api/v1/live', { headers: free.bearer })).data!;
    const b = (await http.GET('/api/v1/live', { headers: builder.bearer })).data!;
    expect(f.delay_s).toBe(300);
    expect(b.delay_s).toBe(0);
    expect(Date.parse(b.generated_at) - Date.parse(f.generated_at)).toBeGreaterThanOrEqual(300_000);
  });

  it('a lapsed plan falls back to Free; a 2.5M holder balance counts as Builder', async () => {
    const lapsed = await issueTestKey(t.db, 'pro', { planExpiresAt: new Date(Date.now() - 1000) });
    expect((await send('getStats', lapsed.bearer)).response.status).toBe(403);
    await t.db('api_keys').where({ id: lapsed.id }).update({ holder_balance: 2_500_000, holder_checked_at: new Date() });
    expect((await send('getStats', lapsed.bearer)).response.status).toBe(200);
    expect(bodyOf(await send('getLeaderboard', lapsed.bearer))).toMatchObject({ required_tier: 'pro', current_tier: 'builder' });
  });
});

describe('quotas: 429 once the day’s calls are used up', () => {
  it('counts exactly under concurrency, then refuses with Retry-After and the documented body', async () => {
    const k = await issueTestKey(t.db, 'free');
    const results = await Promise.all(Array.from({ length: 230 }, () => http.GET('/api/v1/live', { headers: k.xApiKey })));
    const ok = results.filter((r) => r.response.status === 200);
    const refused = results.filter((r) => r.response.status === 429);
    expect([ok.length, refused.length]).toEqual([200, 30]);
    const remaining = ok.map((r) => Number(r.response.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 200 }, (_, i) => i)); // each call saw its own count
    const r = refused[0]!;
    const body = bodyOf(r);
    const reset = new Date(body.reset_at);
    expect(reset.getUTCHours() + reset.getUTCMinutes() + reset.getUTCSeconds()).toBe(0);
    expect(body).toMatchObject({ error: 'quota_exceeded', tier: 'free', limit: 200, used: 200 });
    const retryAfter = Number(r.response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect(r.response.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(r.response.headers.get('x-ratelimit-reset'))).toBe(reset.getTime() / 1000);
    const row = await t.db('api_key_daily_usage').where({ key_id: k.id }).first();
    expect([row.used, row.over_quota]).toEqual([200, 30]);
  });

  it('an Enterprise key has its contract quota', async () => {
    const k = await issueTestKey(t.db, 'enterprise', { customDailyQuota: 2 });
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await http.GET('/api/v1/stats', { headers: k.bearer })).response.status);
    expect(codes).toEqual([200, 200, 429]);
  });
});

describe('GET /api/me', () => {
  it('describes the calling key: tier, plan, quota, wallet, holder balance, beta window', async () => {
    const k = await issueTestKey(t.db, 'builder', { plan: 'yearly' });
    expect((await http.GET('/api/v1/live', { headers: k.bearer })).response.status).toBe(200);
    const r = await http.GET('/api/me', { headers: k.xApiKey });
    expect(r.response.status).toBe(200);
    expect(r.data).toMatchObject({
      key_prefix: k.prefix,
      tier: 'builder',
      plan: 'yearly',
      linked_wallet: null,
      holder_token_balance: null,
      holder_access: null,
      beta_window_open: false,
    });
    expect(r.data!.quota).toMatchObject({ limit: 5000, used: 2, remaining: 4998 });
    expect(r.response.headers.get('x-ratelimit-remaining')).toBe('4998');

    await t
      .db('api_keys')
      .where({ id: k.id })
      .update({ wallet: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', holder_balance: 600_000, plan_expires_at: new Date(Date.now() - 1) });
    const after = await http.GET('/api/me', { headers: k.xApiKey });
    expect(after.response.status).toBe(200);
    expect(after.data).toMatchObject({
      tier: 'free',
      linked_wallet: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
      holder_token_balance: 600_000,
      holder_access: 'signals',
    });
    expect(after.data!.quota.limit).toBe(200);
  });
});

describe('beta window', () => {
  it('inside it keyed operations answer without a key, keyed calls are counted but not refused; /api/me still needs a key', async () => {
    const beta = await startApi(t.db, { env: { API_KEY_REQUIRED_AFTER: new Date(Date.now() + DAY).toISOString(), API_KEY_CACHE_TTL_MS: '0' } });
    try {
      const c = typedApi(beta.url);
      const open = await c.GET('/api/v1/stats');
      expect(open.response.status).toBe(200);
      expect(open.response.headers.get('x-ratelimit-limit')).toBeNull();
      const live = await c.GET('/api/v1/live');
      expect(live.data!.delay_s).toBe(0);
      expect((await c.GET('/api/me')).response.status).toBe(401);

      const k = await issueTestKey(t.db, 'enterprise', { customDailyQuota: 1 });
      const codes = [];
      for (let i = 0; i < 3; i++) codes.push((await c.GET('/api/v1/stats', { headers: k.bearer })).response.status);
      expect(codes).toEqual([200, 200, 200]);
      const free = await issueTestKey(t.db, 'free');
      expect((await c.GET('/api/v1/wallets/leaderboard', { headers: free.bearer })).response.status).toBe(200); // past the tier check
      const me = await c.GET('/api/me', { headers: free.bearer });
      expect(me.data).toMatchObject({ beta_window_open: true, tier: 'free' });
      expect((await c.GET('/api/v1/live', { headers: { Authorization: 'Bearer wrong' } })).response.status).toBe(401);
    } finally {
      await beta.close();
    }
  });

  it('after it the same calls need a key', async () => {
    expect((await http.GET('/api/v1/stats')).response.status).toBe(401);
  });
});
