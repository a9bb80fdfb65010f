import { createJupiterPriceClient } from '../../../clients/jupiter-price-client';
import { NATIVE_COIN_PRICE_WORKFLOW } from '../../../workflows/market/native-coin-price-contract';
import { startJupiterPriceServer } from '../../fakes/jupiter-price-server';
import { call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { createTestDatabase } from '../../support/test-db';
import { startWorker, uniqueId } from '../../support/worker-harness';

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;
let api: Awaited<ReturnType<typeof startApi>>;
let jup: Awaited<ReturnType<typeof startJupiterPriceServer>>;

beforeAll(async () => {
  t = await createTestDatabase();
  jup = await startJupiterPriceServer();
  w = await startWorker(t.db, { overrides: { market: { priceClient: createJupiterPriceClient(jup.url, { timeoutMs: 1000 }) } } });
  api = await startApi(t.db);
});
afterAll(async () => {
  await api.close();
  await w.stop();
  await jup.close();
  await t.drop();
});

const refresh = async (name: string) => {
  const workflowId = uniqueId('native-coin-price');
  const result = await w.client.workflow.execute(NATIVE_COIN_PRICE_WORKFLOW, { taskQueue: w.taskQueue, workflowId });
  await w.maybeRecordHistory(workflowId, name);
  return result;
};

describe('native-coin price refresher → Postgres → GET /api/native_coin_price', () => {
  it('caches the price from the source and serves it with its age', async () => {
    jup.setMode('ok');
    expect(await refresh('price-ok')).toEqual({ ok: true, usd: jup.capturedSolUsd });
    const r = await call(`${api.url}/api/native_coin_price`);
    expect(r.status).toBe(200);
    expectConforms('get', '/api/native_coin_price', 200, r.body);
    expect(r.body).toMatchObject({ symbol: 'SOL', usd: jup.capturedSolUsd, source: 'jupiter-price-v3', stale: false, source_status: { state: 'ok' } });
    expect(r.body.age_s).toBeLessThan(30);
  });

  it('retries a down source, records the outage and keeps serving the last good price', async () => {
    jup.setMode('down');
    const before = jup.requests();
    const result = await refresh('price-source-down');
    expect(result).toEqual({ ok: false, error: 'price source answered HTTP 503' });
    expect(jup.requests() - before).toBe(4); // every attempt of the retry policy reached the source
    const r = await call(`${api.url}/api/native_coin_price`);
    expectConforms('get', '/api/native_coin_price', 200, r.body);
    expect(r.body).toMatchObject({
      usd: jup.capturedSolUsd,
      source_status: { state: 'down', consecutive_failures: 1, last_error: 'price source answered HTTP 503' },
    });
  });

  it('does not retry an answer it can never use, and recovers on the next run', async () => {
    jup.setMode('bad_shape');
    const before = jup.requests();
    const result = await refresh('price-bad-shape');
    expect(result.ok).toBe(false);
    expect(jup.requests() - before).toBe(1);

    jup.setMode('ok');
    await refresh('price-recovers');
    const r = await call(`${api.url}/api/native_coin_price`);
    expect(r.body.source_status).toEqual(expect.objectContaining({ state: 'ok', consecutive_failures: 0, last_error: null }));
  });
});
