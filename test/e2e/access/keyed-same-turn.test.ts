import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeEmptyLiveSnapshots } from '../../support/access-fixtures';
import { issueTestKey } from '../../support/access-keys';
import { afterBeta, call, useApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';

/**
 * A keyed read whose key is remembered, whose lease has calls left and whose body is fresh is admitted, counted and
 * written in the turn its request arrived (api/http/keyed-reads.ts): the server's next `request` listener, which
 * Node calls right after the API's own, already sees the answer's headers sent. Anything that must wait (a key not
 * looked up yet, a key counted call by call in PostgreSQL) is still answered, later, with the same exact counts.
 */
// Prepared bodies held for a minute. Keys with 10,000 calls or more left lease blocks (the default); a block lasts a
// minute here, so a key's first lease (its rate times the lease) covers every later call of the test.
const { t, api } = useApi({ env: { ...afterBeta(), API_READ_CACHE_TTL_MS: '60000', API_QUOTA_LEASE_MS: '60000' } });
const sentInTurn = new Map<string, boolean>();
const recordTurn = (req: IncomingMessage, res: ServerResponse) => sentInTurn.set(`${req.headers['x-probe']}`, res.headersSent);

beforeAll(async () => {
  await writeEmptyLiveSnapshots(t.db, new Date());
  api.server.on('request', recordTurn);
});
afterAll(() => api.server.off('request', recordTurn));

let probes = 0;
/** One call, and whether its answer was written before the API's listener returned. */
async function probe(path: string, headers: Record<string, string>) {
  const id = String(++probes);
  const r = await call(api.url + path, { headers: { ...headers, 'X-Probe': id } });
  return { ...r, inTurn: sentInTurn.get(id), remaining: Number(r.headers.get('x-ratelimit-remaining')) };
}

describe('keyed reads answered in the turn their request arrived', () => {
  it('a remembered key with leased calls: stats and the live list written at once, each call counted once', async () => {
    const k = await issueTestKey(t.db, 'enterprise', { customDailyQuota: 1_000_000 });
    for (const path of ['/api/v1/stats', '/api/v1/live', '/api/v1/live?limit=5']) {
      // The first call of a path may wait (the key's lookup, its first lease, the body's first build).
      const first = await probe(path, k.bearer);
      expect([path, first.status]).toEqual([path, 200]);
      let before = first.remaining;
      for (let i = 0; i < 5; i++) {
        const r = await probe(path, k.bearer);
        expect([path, r.status, r.inTurn]).toEqual([path, 200, true]);
        expect(r.remaining).toBe(before - 1);
        before = r.remaining;
        expectConforms('get', path.split('?')[0]!, 200, r.body);
      }
    }
  });

  it('the first call of a key waits for its lookup; a key counted call by call waits for PostgreSQL and is refused at its limit', async () => {
    // Fewer calls left than the lease policy's minimum headroom: no block, every call is one statement.
    const k = await issueTestKey(t.db, 'enterprise', { customDailyQuota: 3 });
    const statuses: [number, boolean | undefined, number][] = [];
    for (let i = 0; i < 4; i++) {
      const r = await probe('/api/v1/stats', k.bearer);
      statuses.push([r.status, r.inTurn, r.remaining]);
    }
    expect(statuses).toEqual([
      [200, false, 2],
      [200, false, 1],
      [200, false, 0],
      [429, false, 0],
    ]);
  });

  it('a refusal of a remembered key is written at once too (no turn to wait for)', async () => {
    const free = await issueTestKey(t.db, 'free');
    expect((await probe('/api/v1/stats', free.bearer)).status).toBe(403);
    const again = await probe('/api/v1/stats', free.bearer);
    expect([again.status, again.body.error, again.inTurn]).toEqual([403, 'insufficient_tier', true]);
    expectConforms('get', '/api/v1/stats', 403, again.body);
  });
});
