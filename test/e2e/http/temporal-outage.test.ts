import { loadConfig } from '../../../platform/config';
import { lazyTemporalClient } from '../../../platform/temporal-connection';
import { startApi } from '../../support/api-harness';
import { createTestDatabase } from '../../support/test-db';
import { readTestEnv } from '../../support/test-env';
import { testWallet } from '../../support/test-wallet';
import { typedApi } from '../../support/typed-api';
import { startTcpProxy } from './tcp-proxy';

/**
 * The API reaches Temporal lazily and with a deadline: it starts and serves reads while Temporal is down, and
 * an operation that starts a workflow answers 503 with Retry-After within about a second, whether Temporal
 * refuses connections or never answers.
 */
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
let api: Awaited<ReturnType<typeof startApi>>;
const cfg = loadConfig({});

beforeAll(async () => {
  t = await createTestDatabase();
  // The run's real Temporal server, behind a forwarder the test can close (`refuse`) or make silent (`blackhole`).
  const temporal = new URL(`http://${readTestEnv().temporalAddress}`);
  proxy = await startTcpProxy({ host: temporal.hostname, port: Number(temporal.port) });
  const client = lazyTemporalClient(`127.0.0.1:${proxy.port}`, 'default', { callTimeoutMs: cfg.api.temporalCallTimeoutMs });
  api = await startApi(t.db, { temporal: { client, taskQueue: 'nowhere' } });
});
afterAll(async () => {
  await api.close();
  await proxy.close();
  await t.drop();
});

const http = typedApi(() => api.url);
const init = async () => {
  const started = Date.now();
  const r = await http.POST('/api/signup/wallet/init', { body: { wallet: testWallet().address, tier: 'api' } });
  return { status: r.response.status, headers: r.response.headers, ms: Date.now() - started };
};
const health = async () => {
  const r = await http.GET('/api/health');
  expect(r.response.status).toBe(200);
  return r.data!;
};

describe('Temporal reachable', () => {
  it('/api/health says so', async () => {
    expect((await health()).dependencies.temporal).toMatchObject({ state: 'up' });
  });
});

describe.each(['refuse', 'blackhole'] as const)('Temporal unreachable (%s)', (mode) => {
  beforeAll(() => proxy.set(mode));

  it('starting a signup answers 503 with Retry-After within about a second', async () => {
    const r = await init();
    expect(r.status).toBe(503);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(r.ms).toBeLessThan(cfg.api.temporalCallTimeoutMs + 1500);
  });

  it('reads keep serving, and /api/health says Temporal is down', async () => {
    expect((await http.GET('/api/scope')).response.status).toBe(200);
    const started = Date.now();
    const h = await health();
    expect(Date.now() - started).toBeLessThan(cfg.api.temporalCallTimeoutMs + 1500);
    expect(h.status).toBe('degraded');
    expect(h.dependencies.temporal).toMatchObject({ state: 'down' });
  });
});

describe('Temporal back', () => {
  beforeAll(() => proxy.set('forward'));

  it('/api/health says it is up again', async () => {
    let h = await health();
    for (let i = 0; h.dependencies.temporal.state !== 'up' && i < 40; i++) {
      await new Promise((r) => setTimeout(r, 250));
      h = await health();
    }
    expect(h.dependencies.temporal).toMatchObject({ state: 'up' });
  });
});
