import { createSignalStore } from '../../../db/signals/signal-store';
import { createDb } from '../../../platform/db';
import { useApi } from '../../support/api-harness';
import { insertTestCross, testDelivery } from '../../support/composite-fixtures';
import { typedApi } from '../../support/typed-api';
import { asDb, type KnexDb } from '../../../db/knex-handle';

/**
 * The feed's promise: passing back the previous page's cursor never misses and never repeats a signal, even
 * when several processes deliver concurrently and their transactions commit in random order. Four writers, each
 * with its own connection pool (as separate worker processes have), deliver signals with random pauses before
 * the cursor is taken and between the insert and the commit; one poller reads /api/v1/signals at random
 * intervals with random page sizes, always passing back the cursor it was given. Every signal must be seen
 * exactly once, in strictly increasing cursor order.
 */
const { t, api } = useApi();
const http = typedApi(() => api.url);
const WRITERS = 4;
const PER_WRITER = 30;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const jitter = (max: number) => sleep(Math.floor(Math.random() * max));

describe('GET /api/v1/signals cursor', () => {
  const pools: KnexDb[] = [];
  afterAll(async () => {
    for (const p of pools) await p.destroy();
  });

  it('never misses and never repeats with concurrent writers committing out of order', async () => {
    let writing = WRITERS;
    const delivered: number[] = [];
    const writer = async (w: number) => {
      const db = asDb(createDb(t.url, 2));
      pools.push(db);
      const store = createSignalStore(db, { beforeCursor: () => jitter(12), beforeCommit: () => jitter(12) });
      for (let k = 0; k < PER_WRITER; k++) {
        const now = Date.now();
        const x = await insertTestCross(db, { crossedAtMs: now - 5_000 });
        const gp60 = [0.3, 0.15, 0.02, null][(w + k) % 4]!;
        const r = await store.deliver(testDelivery(x, gp60, now));
        if (!r) throw new Error('a fresh cross was delivered twice');
        delivered.push(r.id);
        await jitter(8);
      }
      writing--;
    };

    const seen: { id: number; cursor: number }[] = [];
    let since = 0;
    let pages = 0;
    const poll = async () => {
      const limit = 1 + Math.floor(Math.random() * 6);
      const r = await http.GET('/api/v1/signals', { params: { query: { since, limit } } });
      pages++;
      expect(r.response.status).toBe(200);
      const page = r.data!;
      for (const s of page.signals) seen.push({ id: s.id, cursor: s.cursor });
      expect(page.count).toBe(page.signals.length);
      expect(page.cursor).toBeGreaterThanOrEqual(since);
      since = page.cursor;
      return page.has_more;
    };
    const poller = async () => {
      while (writing > 0) {
        await poll();
        await jitter(25);
      }
      // Drain what was committed after the last poll.
      while (await poll());
      await poll();
    };

    await Promise.all([poller(), ...Array.from({ length: WRITERS }, (_, w) => writer(w))]);

    expect(delivered).toHaveLength(WRITERS * PER_WRITER);
    const ids = seen.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length); // never repeated
    expect([...ids].sort((a, b) => a - b)).toEqual([...delivered].sort((a, b) => a - b)); // never missed
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.cursor).toBeGreaterThan(seen[i - 1]!.cursor);
    expect(pages).toBeGreaterThan(10);
  }, 120_000);
});
