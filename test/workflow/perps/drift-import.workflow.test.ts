import { driftFileKey } from '../../../clients/drift/drift-file-key';
import { waitFor } from '../../../scripts/lib/run';
import { startDriftImport } from '../../../workflows/perps/drift-import-starter';
import { driftFileWorkflowId, driftImportWorkflowId, type DriftImportInput, type DriftImportProgress } from '../../../workflows/perps/drift-import-contract';
import { call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { createTestDatabase } from '../../support/test-db';
import { startWorker } from '../../support/worker-harness';
import { driftTradeFile, pubkey, withBadValue, type FixtureTrade } from '../../fakes/drift-fixtures';
import { startDriftFileServer, type DriftFileFake } from '../../fakes/drift-file-server';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';

/**
 * exchange_a's import on the real Temporal server: one child workflow per day file over a local bucket speaking
 * S3's HTTP (files built from the published schema), then the traders those files touched, read back through HTTP.
 * A corrupt file is recorded and does not stop the others, a missing day is recorded missing, the same file served
 * again changes nothing, a changed file replaces its rows, and a body cut off part-way is read again from the start.
 */
const MARKET = 'SOL-PERP';
const key = (date: string) => driftFileKey({ kind: 'market', market: MARKET, date });
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;
let api: Awaited<ReturnType<typeof startApi>>;
let drift: DriftFileFake;
const traders = (() => {
  const rng = SeededRandom.derive(7, 'drift-import-test');
  return Array.from({ length: 5 }, () => pubkey(rng));
})();
const files = new Map<string, { csv: string; trades: FixtureTrade[] }>();

beforeAll(async () => {
  t = await createTestDatabase();
  drift = await startDriftFileServer();
  const env = { DRIFT_DATA_URL: drift.baseUrl };
  w = await startWorker(t.db, { env });
  api = await startApi(t.db, { env });
  for (const [i, date] of ['2024-03-01', '2024-03-02', '2024-03-03'].entries()) {
    const f = driftTradeFile({ date, rows: 40 + i * 10, seed: 11 + i, traders, firstFillRecordId: 1_000 + i * 1_000 });
    files.set(date, f);
    drift.put(key(date), f.csv);
  }
  // Day 4 is corrupt (a price that is not a number); day 5 has no file.
  drift.put(
    key('2024-03-04'),
    withBadValue(driftTradeFile({ date: '2024-03-04', rows: 20, seed: 99, traders, firstFillRecordId: 9_000 }).csv, 3, 'oraclePrice'),
  );
}, 60_000);
afterAll(async () => {
  await api.close();
  await w.stop();
  await drift.close();
  await t.drop();
});

const run = async (o: Partial<DriftImportInput> & { from: string; to: string }): Promise<DriftImportProgress> => {
  const h = await startDriftImport(w.client, w.taskQueue, { market: MARKET, concurrency: 2, refresh: false, ...o });
  return (await h.result()) as DriftImportProgress;
};
const get = async (path: string, template: string) => {
  const r = await call(`${api.url}${path}`);
  expectConforms('get', template, r.status, r.body);
  return r;
};
const allTrades = () => [...files.values()].flatMap((f) => f.trades);

describe('exchange_a import of Drift day files', () => {
  it('imports each day file once: rows, checksums, a corrupt file and a missing day recorded; traders and markets computed', async () => {
    const p = await run({ from: '2024-03-01', to: '2024-03-05' });
    await w.maybeRecordHistory(driftImportWorkflowId(MARKET, '2024-03-01', '2024-03-05'), 'drift-import');
    await w.maybeRecordHistory(driftFileWorkflowId(MARKET, '2024-03-04'), 'drift-file-import-corrupt');
    const rows = allTrades().length;
    expect(p).toMatchObject({ phase: 'done', days: 5, done: 5, imported: 3, missing: 1, corrupt: 1, failed: 0, rows });
    expect(p.errors).toEqual([{ date: '2024-03-04', error: expect.stringMatching(/oraclePrice|row/) }]);
    expect(Number((await t.db('exchange_a_trades').count('* as n').first())!.n)).toBe(rows);
    const stored = await t.db('exchange_a_files').orderBy('date');
    expect(stored.map((f) => [f.status, f.rows])).toEqual([
      ['imported', 40],
      ['imported', 50],
      ['imported', 60],
      ['corrupt', 0],
      ['missing', 0],
    ]);
    const { createHash } = await import('node:crypto');
    expect(stored[0].sha256).toBe(createHash('sha256').update(files.get('2024-03-01')!.csv).digest('hex'));

    const markets = await get('/api/perps/exchange_a/markets', '/api/perps/exchange_a/markets');
    const volume = allTrades().reduce((s, x) => s + x.quote, 0);
    expect(markets.body.markets).toEqual([
      { market: MARKET, files: 3, trade_rows: rows, volume_usd: expect.any(Number), first_date: '2024-03-01', last_date: '2024-03-03' },
    ]);
    expect(markets.body.markets[0].volume_usd).toBeCloseTo(volume, 4);
    const market = await get(`/api/perps/exchange_a/market/${MARKET}`, '/api/perps/exchange_a/market/{market}');
    expect(market.body.recent_files.map((f: { date: string }) => f.date)).toEqual(expect.arrayContaining(['2024-03-01', '2024-03-02', '2024-03-03']));
    expect((await get('/api/perps/exchange_a/market/BTC-PERP', '/api/perps/exchange_a/market/{market}')).status).toBe(404);

    // A trader's lifetime: every row where it is the taker or the maker.
    const who = traders[0]!;
    const mine = allTrades().filter((x) => x.taker === who || x.maker === who);
    const wallet = await get(`/api/perps/exchange_a/wallet/${who}`, '/api/perps/exchange_a/wallet/{address}');
    expect(wallet.status).toBe(200);
    expect(wallet.body).toMatchObject({ address: who, trades: mine.length, markets_traded: 1 });
    expect(wallet.body.volume_usd).toBeCloseTo(
      mine.reduce((s, x) => s + x.quote, 0),
      4,
    );
    expect(wallet.body.first_trade_at).toBe(new Date(Math.min(...mine.map((x) => x.ts)) * 1000).toISOString());
    expect((await get(`/api/perps/exchange_a/wallet/${'1'.repeat(32)}`, '/api/perps/exchange_a/wallet/{address}')).status).toBe(404);
    expect((await get('/api/perps/exchange_a/wallet/not!base58', '/api/perps/exchange_a/wallet/{address}')).status).toBe(422);
  }, 180_000);

  it('skips imported files, changes nothing for the same file served again, and replaces the rows of a changed one', async () => {
    const before = await t.db('exchange_a_trades').orderBy(['market_index', 'fill_record_id']);
    expect(await run({ from: '2024-03-01', to: '2024-03-02' })).toMatchObject({ skipped: 2, imported: 0, rows: 90 });
    expect(await run({ from: '2024-03-01', to: '2024-03-02', refresh: true })).toMatchObject({ unchanged: 2, imported: 0 });
    expect(await t.db('exchange_a_trades').orderBy(['market_index', 'fill_record_id'])).toEqual(before);

    const changed = driftTradeFile({ date: '2024-03-02', rows: 25, seed: 55, traders, firstFillRecordId: 50_000 });
    files.set('2024-03-02', changed);
    drift.put(key('2024-03-02'), changed.csv);
    expect(await run({ from: '2024-03-02', to: '2024-03-02', refresh: true })).toMatchObject({ imported: 1, rows: 25 });
    expect(
      Number(
        (await t
          .db('exchange_a_trades')
          .where({ file_key: key('2024-03-02') })
          .count('* as n')
          .first())!.n,
      ),
    ).toBe(25);
    expect(Number((await t.db('exchange_a_trades').count('* as n').first())!.n)).toBe(allTrades().length);
    const who = traders[1]!;
    const wallet = await get(`/api/perps/exchange_a/wallet/${who}`, '/api/perps/exchange_a/wallet/{address}');
    expect(wallet.body.trades).toBe(allTrades().filter((x) => x.taker === who || x.maker === who).length);
  }, 180_000);

  it('reads a file cut off part-way again from the start: its rows are stored once', async () => {
    const date = '2024-03-06';
    const f = driftTradeFile({ date, rows: 80, seed: 66, traders, firstFillRecordId: 70_000 });
    drift.put(key(date), f.csv);
    drift.cutOffInTransit(key(date), Math.floor(f.csv.length / 2));
    const h = await startDriftImport(w.client, w.taskQueue, { market: MARKET, from: date, to: date, concurrency: 1, refresh: false });
    await waitFor('the cut-off read', async () => drift.requests().some((r) => r.key === key(date)), 30_000);
    drift.put(key(date), f.csv); // whole again for the retry
    const p = (await h.result()) as DriftImportProgress;
    expect(p).toMatchObject({ imported: 1, failed: 0, rows: 80 });
    expect(drift.requests().filter((r) => r.key === key(date)).length).toBeGreaterThanOrEqual(2);
    expect(
      Number(
        (await t
          .db('exchange_a_trades')
          .where({ file_key: key(date) })
          .count('* as n')
          .first())!.n,
      ),
    ).toBe(80);
  }, 180_000);
});
