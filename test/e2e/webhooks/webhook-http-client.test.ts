import { createWebhookHttpClient } from '../../../clients/webhooks/webhook-http-client';
import { startWebhookReceiver, type WebhookReceiver } from '../../fakes/webhook-receiver';

/**
 * The delivery client against a real local receiver: statuses, a timeout, a slow body, a redirect that is never
 * followed, and the SSRF guard in production mode (loopback refused at connect time, whatever the name).
 */
let rx: WebhookReceiver;
let decoy: WebhookReceiver;
beforeAll(async () => {
  rx = await startWebhookReceiver();
  decoy = await startWebhookReceiver();
});
afterAll(async () => {
  await rx.close();
  await decoy.close();
});

const testMode = () => createWebhookHttpClient({ allowPrivateTargets: true, requireHttps: false, timeoutMs: 400 });

describe('webhook HTTP client (tests may reach loopback)', () => {
  const c = testMode();
  afterAll(() => c.close());

  it('2xx is a success; the exact body and headers arrive', async () => {
    const r = await c.post(rx.url('/ok'), '{"a":1}', { 'webhook-id': 'evt_1' });
    expect(r).toMatchObject({ statusCode: 200, error: null });
    const got = rx.at('/ok')[0]!;
    expect(got.body).toBe('{"a":1}');
    expect(got.headers['webhook-id']).toBe('evt_1');
    expect(got.headers['content-type']).toBe('application/json');
  });

  it('a 500 and a 410 are reported with their status', async () => {
    rx.script('/500', [500]);
    rx.script('/410', [410]);
    expect(await c.post(rx.url('/500'), '{}', {})).toMatchObject({ statusCode: 500, error: 'HTTP 500' });
    expect(await c.post(rx.url('/410'), '{}', {})).toMatchObject({ statusCode: 410, error: 'HTTP 410' });
  });

  it('a receiver that never answers times out', async () => {
    rx.script('/hang', ['hang']);
    const r = await c.post(rx.url('/hang'), '{}', {});
    expect(r).toMatchObject({ statusCode: null, error: 'timeout after 400 ms' });
    expect(r.durationMs).toBeGreaterThanOrEqual(390);
  });

  it('a slow body after a 200 is a success decided on the status line, without waiting for the body', async () => {
    rx.script('/slow', ['slow-body']);
    const r = await c.post(rx.url('/slow'), '{}', {});
    expect(r).toMatchObject({ statusCode: 200, error: null });
    expect(r.durationMs).toBeLessThan(400);
  });

  it('never follows a redirect (here to the metadata address)', async () => {
    rx.script('/redirect', [{ redirect: 'http://169.254.169.254/latest/meta-data/' }]);
    const r = await c.post(rx.url('/redirect'), '{}', {});
    expect(r).toMatchObject({ statusCode: 302, error: 'redirect 302 not followed' });
  });

  it('never follows a redirect to another (private) receiver either', async () => {
    rx.script('/redirect-local', [{ redirect: decoy.url('/internal') }]);
    const r = await c.post(rx.url('/redirect-local'), '{}', {});
    expect(r.statusCode).toBe(302);
    expect(decoy.received).toHaveLength(0);
  });
});

describe('webhook HTTP client in production mode (SSRF guard)', () => {
  // A name that resolves to the receiver's loopback address, as a hostile DNS answer would.
  const resolve = async (host: string) =>
    host === 'hooks.customer.example' ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '93.184.215.14', family: 4 }];
  const prod = createWebhookHttpClient({ allowPrivateTargets: false, requireHttps: true, timeoutMs: 1000, resolve });
  const prodHttp = createWebhookHttpClient({ allowPrivateTargets: false, requireHttps: false, timeoutMs: 1000, resolve });
  afterAll(() => {
    prod.close();
    prodHttp.close();
  });

  it('refuses a name that resolves to loopback, at connect time (the receiver sees nothing)', async () => {
    const before = rx.received.length;
    const r = await prodHttp.post(`http://hooks.customer.example:${rx.port}/ok`, '{}', {});
    expect(r.statusCode).toBeNull();
    expect(r.error).toBe('refused: hooks.customer.example resolves to a non-public address (127.0.0.1)');
    const s = await prod.post(`https://hooks.customer.example:${rx.port}/ok`, '{}', {});
    expect(s.error).toMatch(/^refused: hooks\.customer\.example resolves to a non-public address/);
    expect(rx.received.length).toBe(before);
  });

  it('refuses plain http, private IP literals and v4-mapped loopback', async () => {
    expect((await prod.post(`http://example.com/`, '{}', {})).error).toBe('refused: the URL must use https');
    expect((await prod.post(`https://127.0.0.1:${rx.port}/ok`, '{}', {})).error).toBe('refused: 127.0.0.1 is not a public address');
    expect((await prod.post(`https://[::ffff:127.0.0.1]:${rx.port}/ok`, '{}', {})).error).toMatch(/^refused: .* is not a public address$/);
    expect((await prod.post(`https://169.254.169.254/`, '{}', {})).error).toBe('refused: 169.254.169.254 is not a public address');
  });
});
