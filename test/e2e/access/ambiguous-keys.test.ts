import { createApiKeyStore } from '../../../db/access/api-key-store';
import { writeEmptyLiveSnapshots } from '../../support/access-fixtures';
import { issueTestKey } from '../../support/access-keys';
import { afterBeta, useApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { rawRequest } from '../../support/raw-http';

/**
 * Two different keys in one request answer 401 ambiguous_key, whichever headers carry them and however often: Node
 * keeps only the first `Authorization` header in `req.headers`, so a second one used to pass unseen. The same key
 * repeated is one key. Requests go out over a raw socket (not the typed client): fetch folds repeated headers into one.
 */
let port: number;

const { t, api } = useApi({ env: afterBeta({ keyCacheTtlMs: 0 }) });
beforeAll(async () => {
  port = Number(new URL(api.url).port);
  await writeEmptyLiveSnapshots(t.db, new Date());
});

describe('two different keys in one request', () => {
  it('answer 401 ambiguous_key in any combination of Authorization and X-API-Key headers, and are not counted', async () => {
    const a = await issueTestKey(t.db, 'pro');
    const b = await issueTestKey(t.db, 'pro');
    const revoked = await issueTestKey(t.db, 'pro');
    await createApiKeyStore(t.db).revoke(revoked.id);
    const cases = [
      [`Authorization: Bearer ${a.plaintext}`, `Authorization: Bearer ${b.plaintext}`],
      [`Authorization: Bearer ${a.plaintext}`, `authorization: bearer ${revoked.plaintext}`],
      [`Authorization: Bearer ${a.plaintext}`, `X-API-Key: ${b.plaintext}`],
      [`X-API-Key: ${a.plaintext}`, `Authorization: Bearer ${revoked.plaintext}`],
      [`X-API-Key: ${a.plaintext}`, `X-API-Key: ${b.plaintext}`],
      [`X-API-Key: ${a.plaintext}`, `Authorization: Bearer ${a.plaintext}`, `X-API-Key: ${b.plaintext}`],
    ];
    for (const lines of cases) {
      for (const path of ['/api/v1/live', '/api/me']) {
        const r = await rawRequest(port, 'GET', path, lines);
        const body = JSON.parse(r.body);
        expect([lines, path, r.status, body.error]).toEqual([lines, path, 401, 'ambiguous_key']);
        expect(r.headers['www-authenticate']).toMatch(/^Bearer realm="api"/);
        expectConforms('get', path, 401, body);
        // Neither key is named back.
        expect(r.body).not.toContain(a.plaintext);
        expect(r.body).not.toContain(b.plaintext);
      }
    }
    expect(await t.db('api_key_daily_usage').whereIn('key_id', [a.id, b.id])).toEqual([]);
  });

  it('refuses a keyed POST the same way', async () => {
    const a = await issueTestKey(t.db, 'free');
    const b = await issueTestKey(t.db, 'free');
    const body = JSON.stringify({ wallet: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', signature_b58: '1'.repeat(64), key_prefix: a.prefix });
    const r = await rawRequest(port, 'POST', '/api/v1/wallet/link', [`Authorization: Bearer ${b.plaintext}`, `Authorization: Bearer ${a.plaintext}`], body);
    expect(r.status).toBe(401);
    expectConforms('post', '/api/v1/wallet/link', 401, JSON.parse(r.body));
    expect(JSON.parse(r.body).error).toBe('ambiguous_key');
  });

  it('serves the same key sent twice, in the same header or in both', async () => {
    const k = await issueTestKey(t.db, 'pro');
    for (const lines of [
      [`Authorization: Bearer ${k.plaintext}`, `Authorization: Bearer ${k.plaintext}`],
      [`X-API-Key: ${k.plaintext}`, `X-API-Key: ${k.plaintext}`],
      [`X-API-Key: ${k.plaintext}`, `Authorization: Bearer ${k.plaintext}`, `x-api-key: ${k.plaintext}`],
    ]) {
      const r = await rawRequest(port, 'GET', '/api/v1/live', lines);
      expect([lines, r.status]).toEqual([lines, 200]);
      expectConforms('get', '/api/v1/live', 200, JSON.parse(r.body));
    }
  });
});
