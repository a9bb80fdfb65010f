import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { createDriftHistoricalClient, DriftFileError } from '../../../clients/drift/drift-historical-client';
import { driftFileKey, DriftFileRefError, type DriftFileRef } from '../../../clients/drift/drift-file-key';
import type { DriftTrade } from '../../../domain/perps/drift-trade';
import { driftTradeFile, truncatedMidRow, withBadValue } from '../../fakes/drift-fixtures';
import { startDriftFileServer, type DriftFileFake } from '../../fakes/drift-file-server';

let drift: DriftFileFake;
beforeAll(async () => (drift = await startDriftFileServer()));
afterAll(() => drift.close());

const day = (date: string): DriftFileRef => ({ kind: 'market', market: 'SOL-PERP', date });
const client = (batchSize = 100) => createDriftHistoricalClient({ baseUrl: drift.baseUrl, batchSize });
async function read(ref: DriftFileRef, batchSize = 100) {
  const rows: DriftTrade[] = [];
  const batches: number[] = [];
  const result = await client(batchSize).readTradeFile(ref, (b) => {
    batches.push(b.length);
    rows.push(...b);
  });
  return { result, rows, batches };
}
const sha256 = (b: string | Buffer) => createHash('sha256').update(b).digest('hex');

describe('Drift historical trade files over a local bucket', () => {
  it('reads a day file in the documented layout: every row validated, batched, checksummed', async () => {
    const { csv, trades } = driftTradeFile({ date: '2024-01-01', rows: 250, seed: 1 });
    drift.put('market/SOL-PERP/tradeRecords/2024/20240101', csv);
    const { result, rows, batches } = await read(day('2024-01-01'));
    expect(result).toEqual({
      status: 'read',
      key: 'market/SOL-PERP/tradeRecords/2024/20240101',
      sha256: sha256(csv),
      bytes: Buffer.byteLength(csv),
      rows: 250,
      gzipped: false,
      etag: expect.stringMatching(/^"[0-9a-f]{32}"$/),
    });
    expect(batches).toEqual([100, 100, 50]);
    expect(rows[0]).toMatchObject({
      at: trades[0]!.ts * 1000,
      fillRecordId: trades[0]!.fillRecordId,
      marketType: 'perp',
      marketIndex: 0,
      action: 'fill',
      baseAmount: trades[0]!.base,
      quoteAmountUsd: trades[0]!.quote,
      oraclePrice: trades[0]!.price,
      taker: trades[0]!.taker,
      takerDirection: trades[0]!.direction,
      maker: trades[0]!.maker,
      takerFeeUsd: trades[0]!.takerFee,
    });
    const amm = rows.find((r) => r.maker === null)!;
    expect(amm).toMatchObject({ makerDirection: null, actionExplanation: 'orderFilledWithAmm' });
  });

  it('reads a gzip object the same way, its checksum over the bytes served', async () => {
    const { csv } = driftTradeFile({ date: '2024-01-02', rows: 40, seed: 2 });
    const gz = gzipSync(csv);
    drift.put('market/SOL-PERP/tradeRecords/2024/20240102', gz);
    const { result, rows } = await read(day('2024-01-02'));
    expect(result).toMatchObject({ status: 'read', rows: 40, gzipped: true, sha256: sha256(gz), bytes: gz.length });
    expect(rows).toHaveLength(40);
  });

  it('gives the same checksum when the same file is served twice', async () => {
    const a = await read(day('2024-01-01'));
    const b = await read(day('2024-01-01'));
    expect(a.result.status === 'read' && b.result.status === 'read' && a.result.sha256 === b.result.sha256).toBe(true);
    expect(b.rows).toEqual(a.rows);
  });

  it('tells a day without a file (404) apart from a failure', async () => {
    await expect(read(day('2024-02-01'))).resolves.toMatchObject({
      result: { status: 'missing', key: 'market/SOL-PERP/tradeRecords/2024/20240201' },
      rows: [],
    });
    drift.failNext(503);
    const err = await read(day('2024-01-01')).catch((e) => e);
    expect(err).toBeInstanceOf(DriftFileError);
    expect(err).toMatchObject({ kind: 'http', retryable: true });
    expect(drift.requests().at(-1)).toEqual({ key: 'market/SOL-PERP/tradeRecords/2024/20240101', status: 503 });
  });

  it('refuses a corrupt file (a value that is not a number) as not worth retrying, naming the row', async () => {
    const { csv } = driftTradeFile({ date: '2024-01-03', rows: 30, seed: 3 });
    drift.put('market/SOL-PERP/tradeRecords/2024/20240103', withBadValue(csv, 17, 'quoteAssetAmountFilled'));
    const err = await read(day('2024-01-03')).catch((e) => e);
    expect(err).toMatchObject({ kind: 'corrupt', retryable: false });
    expect(err.message).toMatch(/row 17: quoteAssetAmountFilled/);
  });

  it('refuses a file missing a column it needs, and garbage that is not CSV', async () => {
    const { csv } = driftTradeFile({ date: '2024-01-04', rows: 5, seed: 4 });
    drift.put('market/SOL-PERP/tradeRecords/2024/20240104', csv.replace('takerOrderDirection', 'direction'));
    await expect(read(day('2024-01-04'))).rejects.toMatchObject({ kind: 'corrupt', message: expect.stringMatching(/missing columns takerOrderDirection/) });
    drift.put('market/SOL-PERP/tradeRecords/2024/20240105', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
    await expect(read(day('2024-01-05'))).rejects.toMatchObject({ kind: 'corrupt', message: expect.stringMatching(/gzip/) });
  });

  it('refuses a file stored truncated mid-row (plain or gzip) as corrupt', async () => {
    const { csv } = driftTradeFile({ date: '2024-01-06', rows: 30, seed: 6 });
    drift.put('market/SOL-PERP/tradeRecords/2024/20240106', truncatedMidRow(csv, 20));
    await expect(read(day('2024-01-06'))).rejects.toMatchObject({ kind: 'corrupt', message: expect.stringMatching(/malformed CSV/) });
    const gz = gzipSync(csv);
    drift.put('market/SOL-PERP/tradeRecords/2024/20240107', gz.subarray(0, Math.floor(gz.length * 0.6)));
    await expect(read(day('2024-01-07'))).rejects.toMatchObject({ kind: 'corrupt', retryable: false });
  });

  it('reports a body cut off in transit as truncated and worth retrying; the retry reads it whole', async () => {
    const { csv } = driftTradeFile({ date: '2024-01-08', rows: 2000, seed: 8 });
    drift.put('market/SOL-PERP/tradeRecords/2024/20240108', csv);
    drift.cutOffInTransit('market/SOL-PERP/tradeRecords/2024/20240108', Math.floor(csv.length / 3));
    await expect(read(day('2024-01-08'))).rejects.toMatchObject({ kind: 'truncated', retryable: true });
    drift.put('market/SOL-PERP/tradeRecords/2024/20240108', csv);
    await expect(read(day('2024-01-08'))).resolves.toMatchObject({ result: { status: 'read', rows: 2000, sha256: sha256(csv) } });
  });

  it('gives up on a body that stalls as truncated, but not while its own consumer is busy', async () => {
    const { csv } = driftTradeFile({ date: '2024-01-10', rows: 200, seed: 10 });
    drift.put('market/SOL-PERP/tradeRecords/2024/20240110', csv);
    const slow = createDriftHistoricalClient({ baseUrl: drift.baseUrl, batchSize: 100, idleTimeoutMs: 400 });
    await expect(slow.readTradeFile(day('2024-01-10'), () => new Promise((r) => setTimeout(r, 700)))).resolves.toMatchObject({ status: 'read', rows: 200 });
    drift.cutOffInTransit('market/SOL-PERP/tradeRecords/2024/20240110', Math.floor(csv.length / 2), 'stall');
    await expect(slow.readTradeFile(day('2024-01-10'), () => undefined)).rejects.toMatchObject({ kind: 'truncated', retryable: true });
  });

  it('waits for each batch to be taken before reading on', async () => {
    const { csv } = driftTradeFile({ date: '2024-01-09', rows: 1000, seed: 9 });
    drift.put('market/SOL-PERP/tradeRecords/2024/20240109', csv);
    let inFlight = 0;
    let maxInFlight = 0;
    await client(100).readTradeFile(day('2024-01-09'), async () => {
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
    });
    expect(maxInFlight).toBe(1);
  });

  it('is unreachable (retryable) when nothing listens', async () => {
    const c = createDriftHistoricalClient({ baseUrl: 'http://127.0.0.1:9/program/x' });
    await expect(c.readTradeFile(day('2024-01-01'), () => undefined)).rejects.toMatchObject({ kind: 'unreachable', retryable: true });
  });
});

describe('Drift file keys', () => {
  it('builds the documented market and user paths', () => {
    expect(driftFileKey({ kind: 'market', market: 'BTC-PERP', date: '2023-04-25' })).toBe('market/BTC-PERP/tradeRecords/2023/20230425');
    const account = 'FrEFAwxdrzHxgc7S4cuFfsfLmcg8pfbxnkCQW83euyCS';
    expect(driftFileKey({ kind: 'user', account, date: '2024-01-24' })).toBe(`user/${account}/tradeRecords/2024/20240124`);
  });

  it('refuses bad dates, days after publication ended, and path tricks', () => {
    expect(() => driftFileKey(day('2024-02-30'))).toThrow(DriftFileRefError);
    expect(() => driftFileKey(day('2025-01-09'))).toThrow(/after 2025-01-08/);
    expect(() => driftFileKey({ kind: 'market', market: '..', date: '2024-01-01' })).toThrow(DriftFileRefError);
    expect(() => driftFileKey({ kind: 'market', market: 'a/b', date: '2024-01-01' })).toThrow(DriftFileRefError);
    expect(() => driftFileKey({ kind: 'user', account: 'not-base58!', date: '2024-01-01' })).toThrow(DriftFileRefError);
  });
});
