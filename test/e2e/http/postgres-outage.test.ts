import { createLiveStore, LIVE_SNAPSHOT } from '../../../db/live/live-store';
import { createWatchdogStore } from '../../../db/ops/watchdog-store';
import { loadConfig } from '../../../platform/config';
import { createDb } from '../../../platform/db';
import { createLogger, throttledDbLog } from '../../../platform/logger';
import { issueTestKey } from '../../support/access-keys';
import { afterBeta, startApi } from '../../support/api-harness';
import { createTestDatabase } from '../../support/test-db';
import { typedApi } from '../../support/typed-api';
import { startTcpProxy } from './tcp-proxy';
import { asDb, type KnexDb } from '../../../db/knex-handle';

/**
 * The API over a Postgres that goes away (a TCP forwarder the test closes, then a partition that never answers)
 * and comes back: keyed and public reads answer 503 with Retry-After within about a second, /api/health answers
 * `degraded` from memory, /api/live keeps serving the snapshot it holds, the log gets one line per cause, and
 * everything serves again once Postgres is back.
 */
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
let db: KnexDb;
let api: Awaited<ReturnType<typeof startApi>>;
let key: Awaited<ReturnType<typeof issueTestKey>>;
const logLines: { level: number; msg: string; err?: { stack?: string } }[] = [];
const MINT = 'So11111111111111111111111111111111111111112';

beforeAll(async () => {
  t = await createTestDatabase();
  const target = new URL(t.url);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
  const viaProxy = new URL(t.url);
  viaProxy.port = String(proxy.port);
  const cfg = loadConfig({});
  const log = createLogger('info', 'api-test', { write: (s: string) => void logLines.push(JSON.parse(s)) });
  // The API's production settings: a bounded wait for a connection and for a statement.
  db = asDb(createDb(viaProxy.toString(), 5, { ...cfg.api.db, log: throttledDbLog(log) }));
  key = await issueTestKey(t.db, 'pro');
  const now = new Date();
  await createLiveStore(t.db).writeSnapshot(
    LIVE_SNAPSHOT,
    JSON.stringify({ generated_at: now.toISOString(), refresh_interval_s: 2, delay_s: 0, total_tracked: 0, count: 0, mints: [] }),
    0,
    now,
  );
  const obs = {
    disk: { path: '/', totalBytes: 1000, freeBytes: 500 },
    memory: { totalBytes: 1000, availableBytes: 500 },
    stuck: { count: 0, byType: {} },
    staleHeartbeats: [],
  };
  await createWatchdogStore(t.db).recordTick('watchdog-1', now, obs, []);
  api = await startApi(db, { log, env: afterBeta({ endedAt: new Date('2020-01-01T00:00:00Z') }) });
});
afterAll(async () => {
  await api.close();
  await db.destroy();
  await proxy.close();
  await t.drop();
});

const http = typedApi(() => api.url);
const keyed = () => ({ headers: key.bearer });
type Sent = { response: Response; data?: unknown; error?: unknown };
/** Reads that need Postgres, keyed and public, through the typed client (each answer checked against openapi.yaml). */
const READS: [string, () => Promise<Sent>][] = [
  ['/api/scope', () => http.GET('/api/scope')],
  ['/api/status', () => http.GET('/api/status')],
  ['/api/v1/stats', () => http.GET('/api/v1/stats', keyed())],
  ['/api/v1/probe/{mint}', () => http.GET('/api/v1/probe/{mint}', { params: { path: { mint: MINT } }, ...keyed() })],
  ['/api/v1/runners', () => http.GET('/api/v1/runners', keyed())],
  ['/api/predictions/by_mint/{mint}', () => http.GET('/api/predictions/by_mint/{mint}', { params: { path: { mint: MINT } } })],
  ['/api/burn/history', () => http.GET('/api/burn/history')],
];

/** An answer flattened: status, headers, body (data or error), and how long it took. */
async function timed(send: () => Promise<Sent>) {
  const started = Date.now();
  const r = await send();
  return { status: r.response.status, headers: r.response.headers, body: (r.response.ok ? r.data : r.error) as any, ms: Date.now() - started };
}
const health = () => timed(() => http.GET('/api/health'));

describe('Postgres up', () => {
  it('serves every read', async () => {
    // 200, or the documented 404 for a mint nobody has seen.
    for (const [template, send] of READS) expect([template, (await timed(send)).status < 500]).toEqual([template, true]);
    const h = await health();
    expect(h.status).toBe(200);
    expect(h.body.dependencies.postgres.state).toBe('up');
  });
});

describe.each(['refuse', 'blackhole'] as const)('Postgres %s', (mode) => {
  beforeAll(() => proxy.set(mode));

  it.each(READS)('%s answers 503 with Retry-After within about a second', async (_template, send) => {
    const r = await timed(send);
    expect(r.status).toBe(503);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(r.body).toMatchObject({ error: 'unavailable' });
    expect(r.ms).toBeLessThan(2500);
  });

  it('/api/health answers degraded from memory', async () => {
    const r = await health();
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('degraded');
    expect(r.body.dependencies.postgres).toMatchObject({ state: 'down' });
    expect(r.body.tick).toMatchObject({ id: expect.any(Number) });
    expect(r.ms).toBeLessThan(2500);
    // /livez is an operator route outside openapi.yaml: raw fetch.
    expect((await fetch(`${api.url}/livez`)).status).toBe(200);
  });

  it('/api/live keeps serving the snapshot it holds, with its age', async () => {
    const r = await timed(() => http.GET('/api/live'));
    expect(r.status).toBe(200);
    expect(Number(r.headers.get('age'))).toBeGreaterThanOrEqual(0);
  });
});

describe('Postgres back', () => {
  beforeAll(() => proxy.set('forward'));

  it('serves every read again', async () => {
    for (const [template, send] of READS) {
      let r = await timed(send);
      for (let i = 0; r.status >= 500 && i < 20; i++) {
        await new Promise((res) => setTimeout(res, 250));
        r = await timed(send);
      }
      expect([template, r.status < 500]).toEqual([template, true]);
    }
    const h = await health();
    expect(h.body.dependencies.postgres.state).toBe('up');
  });

  it('logged the outage once per cause, not once per request, and no stack per request', () => {
    const errors = logLines.filter((l) => l.level >= 50);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.length).toBeLessThanOrEqual(4);
    const withStack = logLines.filter((l) => l.err?.stack);
    expect(withStack.length).toBeLessThanOrEqual(4);
  });
});
