import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLiveStore, LIVE_SNAPSHOT } from '../../../db/live/live-store';
import { createLogger } from '../../../platform/logger';
import { call, useApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';

/**
 * A fast-path answer whose building throws is the app's to answer. A live snapshot row that is not the projector's
 * JSON (written through the real store) makes the public list's builder throw: the API as it listens must still
 * answer every request with the documented body (never a closed socket), the fast path alone must hand the request
 * on (its stand-in app answers 599 here), and the cause is logged once, not per request.
 */
const logLines: string[] = [];
const { t, api } = useApi({
  log: createLogger('info', 'api-test', { write: (s: string) => void logLines.push(s) }),
  env: { API_READ_CACHE_TTL_MS: '600000', VALIDATE_RESPONSES: 'false', LIVE_STALE_AFTER_S: '3600' },
});

let fastOnly: Server;
let fastOnlyUrl = '';
const fastOnlyFailures: unknown[] = [];
beforeAll(async () => {
  const missed: http.RequestListener = (_req, res) => res.writeHead(599).end();
  fastOnly = http.createServer(
    api.deps.publicReads.before(
      missed,
      () => undefined,
      (err) => void fastOnlyFailures.push(err),
    ),
  );
  await new Promise<void>((r) => fastOnly.listen(0, '127.0.0.1', r));
  fastOnlyUrl = `http://127.0.0.1:${(fastOnly.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => fastOnly.close(r)));

const fastPathFailures = () =>
  logLines.map((l) => JSON.parse(l) as { level: number; msg: string; route?: string }).filter((l) => l.msg.startsWith('fast path failed'));

describe('a fast-path answer that throws', () => {
  it('goes to the app, which answers the documented 503 for an unreadable live snapshot; logged once', async () => {
    const builtAt = new Date();
    // Valid JSON, but its mints are not the projector's (no `created_at` for the public list's order).
    const body = JSON.stringify({
      generated_at: builtAt.toISOString(),
      refresh_interval_s: 2,
      delay_s: 0,
      total_tracked: 1,
      count: 1,
      mints: [{ mint: 'x' }, 7],
    });
    await createLiveStore(t.db).writeSnapshot(LIVE_SNAPSHOT, body, 2, builtAt);

    // The first request loads the snapshot through the app; while it is in memory (checked within the cache's
    // poll interval) the fast path tries it, and the app answers.
    for (let i = 0; i < 10 || fastOnlyFailures.length === 0; i++) {
      if (i >= 100) throw new Error('the fast path never tried the unreadable snapshot');
      const r = await call(`${api.url}/api/live`, { headers: i % 2 ? { 'Accept-Encoding': 'gzip' } : {} });
      expect([r.status, r.headers.get('retry-after')]).toEqual([503, '5']);
      expectConforms('get', '/api/live', r.status, r.body);
      // The fast path alone: its builder threw (told to its `failed`) and the request went on to its app.
      expect((await fetch(`${fastOnlyUrl}/api/live`)).status).toBe(599);
    }
    expect(fastOnlyFailures[0]).toMatchObject({ status: 503, cause: expect.any(TypeError) });
    expect(fastPathFailures()).toEqual([expect.objectContaining({ level: 50, route: '/api/live' })]);
  });

  it('serves from the fast path again once the projector writes a readable snapshot', async () => {
    const builtAt = new Date();
    const mints = [{ mint: `Mint${'1'.repeat(40)}`, name: 'token', created_at: builtAt.toISOString(), grad_prob: 0.5 }];
    const body = JSON.stringify({ generated_at: builtAt.toISOString(), refresh_interval_s: 2, delay_s: 0, total_tracked: 1, count: 1, mints });
    await createLiveStore(t.db).writeSnapshot(LIVE_SNAPSHOT, body, 1, builtAt);
    let fast = 599;
    for (let i = 0; i < 40 && fast === 599; i++) {
      // The unreadable version until the cache's next version check; a minimal list (not the projector's full mint
      // shape) after it, so only the status is asserted here.
      expect([200, 503]).toContain((await call(`${api.url}/api/live`)).status);
      fast = (await fetch(`${fastOnlyUrl}/api/live`)).status;
      if (fast === 599) await new Promise((r) => setTimeout(r, 100));
    }
    expect(fast).toBe(200);
  });
});
