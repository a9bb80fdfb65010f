import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstScoreLine, watchFirstScores } from '../../../scripts/lib/first-scores';
import { waitFor } from '../../../scripts/lib/run';
import { wordsFor } from '../../../scripts/lib/log-line-words';
import { createProcessOutput } from '../../../scripts/lib/process-output';

const pino = (o: Record<string, unknown>) => JSON.stringify({ level: 30, time: 1, pid: 1, hostname: 'h', ...o });

describe("npm start's plain words for its processes' output", () => {
  it('says when a piece is up, with its URL', () => {
    expect(wordsFor('api', pino({ name: 'api', msg: 'api listening', url: 'http://127.0.0.1:8000' }), 'stdout')).toMatchObject({
      kind: 'up',
      text: 'API is listening on http://127.0.0.1:8000 (interactive docs at http://127.0.0.1:8000/docs)',
    });
    expect(wordsFor('worker', pino({ msg: 'worker started', taskQueue: 'launchpad-main', address: '127.0.0.1:7233' }), 'stdout')?.text).toBe(
      'worker is polling task queue launchpad-main on Temporal 127.0.0.1:7233',
    );
    expect(wordsFor('ingest', pino({ msg: 'ingest started', feeds: ['simulator'] }), 'stdout')?.text).toBe('ingest is reading the simulator feed');
  });

  it('says errors and warnings in one line with the error, and nothing about requests or counters', () => {
    const err = pino({ level: 50, msg: 'backfill failed: the gap stays open for this feed', err: { type: 'Error', message: 'connect ECONNREFUSED\n  at x' } });
    expect(wordsFor('ingest', err, 'stdout')).toMatchObject({
      kind: 'error',
      text: 'ingest: backfill failed: the gap stays open for this feed: connect ECONNREFUSED',
    });
    expect(wordsFor('worker', pino({ level: 40, msg: 'heartbeat failed', err: { message: 'timeout' } }), 'stdout')).toMatchObject({
      kind: 'warning',
      text: 'worker: heartbeat failed: timeout',
    });
    const request = pino({ req: { method: 'GET', url: '/api/live' }, res: { statusCode: 200 }, msg: 'request completed' });
    expect(wordsFor('api', request, 'stdout')).toBeUndefined();
    expect(wordsFor('ingest', pino({ msg: 'ingest progress', written: 0 }), 'stdout')).toBeUndefined();
    expect(wordsFor('ingest', pino({ msg: 'ingest progress', written: 42 }), 'stdout')).toMatchObject({ once: true });
  });

  it('passes on plain error lines printed outside the logger (a crash), and no other plain output', () => {
    expect(wordsFor('worker', 'Error: connect ECONNREFUSED 127.0.0.1:7233', 'stderr')).toMatchObject({
      kind: 'error',
      text: 'worker: Error: connect ECONNREFUSED 127.0.0.1:7233',
    });
    expect(wordsFor('worker', '    at TCPConnectWrap.afterConnect', 'stderr')).toBeUndefined();
    expect(wordsFor('worker', 'Error: looks like one', 'stdout')).toBeUndefined();
  });

  it('names a failed activity and its cause; a failure Temporal retries is an expected summary, not an error', () => {
    const retried = pino({
      level: 40,
      msg: 'Activity failed',
      temporal: { activityType: 'fetchNativeCoinPrice', attempt: 3 },
      err: { type: 'PriceSourceError', message: 'price source unreachable: fetch failed\n    at x' },
    });
    expect(wordsFor('worker', retried, 'stdout')).toEqual({
      kind: 'note',
      text: 'worker: activity fetchNativeCoinPrice will be retried (attempt 3): price source unreachable: fetch failed',
      key: 'activity-retry:fetchNativeCoinPrice',
      summary: true,
    });
    const permanent = pino({
      level: 40,
      msg: 'Activity failed',
      temporal: { activityType: 'anchorLedgerCommit', attempt: 1 },
      err: { type: 'ApplicationFailure', nonRetryable: true, message: 'the memo is too long' },
    });
    expect(wordsFor('worker', permanent, 'stdout')).toMatchObject({
      kind: 'error',
      text: 'worker: activity anchorLedgerCommit failed for good: the memo is too long',
    });
  });

  it('names the first score of an age bucket', () => {
    expect(
      firstScoreLine({ mint: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', symbol: 'PEPE', age_s: 31, grad_prob: 0.0412, grad_prob_age_bucket: 30 }),
    ).toBe('first 30 s score: 7xKXtg2C… (PEPE) grad_prob 0.04');
  });
});

describe('first scores after a restart', () => {
  it('announces nothing from a live list built before this start, then the first score of a fresh one', async () => {
    const since = new Date('2026-11-27T12:00:00Z');
    const mint = { mint: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', symbol: 'PEPE', age_s: 61, grad_prob: 0.05, grad_prob_age_bucket: 60 };
    let generatedAt = new Date(since.getTime() - 5000);
    let served = 0;
    const server = http.createServer((_req, res) => {
      served++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ generated_at: generatedAt.toISOString(), mints: [mint] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const said: string[] = [];
    const w = watchFirstScores(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, (l) => said.push(l), { buckets: [60], everyMs: 20, since });
    try {
      await waitFor('a few polls of the pre-stop list', async () => served >= 3, 5000);
      expect(said).toEqual([]);
      generatedAt = new Date(since.getTime() + 2000);
      await waitFor('the first fresh score', async () => said.length > 0, 5000);
      expect(said).toEqual(['first 60 s score: 7xKXtg2C… (PEPE) grad_prob 0.05']);
    } finally {
      w.stop();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('process output', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'process-output-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('sums expected retries up in one line every few minutes, and prints no raw JSON', async () => {
    const said: string[] = [];
    const own = fs.mkdtempSync(path.join(os.tmpdir(), 'process-output-retries-'));
    const out = createProcessOutput({ mode: 'pretty', dataDir: own, say: (l) => said.push(l), complain: (l) => said.push(l) });
    const retry = pino({ level: 40, msg: 'Activity failed', temporal: { activityType: 'fetchNativeCoinPrice', attempt: 2 }, err: { message: 'HTTP 503' } });
    const sink = out.sink('worker');
    for (let i = 0; i < 15; i++) sink(Buffer.from(`${retry}\n`), 'stdout');
    sink(Buffer.from(`${pino({ level: 30, msg: 'simulated perps exchange', trades: 5 })}\n`), 'stdout');
    expect(said).toEqual(['• worker: activity fetchNativeCoinPrice will be retried (attempt 2): HTTP 503']);
    expect(said.some((l) => l.includes('{'))).toBe(false);
    await out.close();
    fs.rmSync(own, { recursive: true, force: true });
  });

  it('writes every line to the log file and prints, on a terminal, only throttled plain words', async () => {
    const said: string[] = [];
    const out = createProcessOutput({ mode: 'pretty', dataDir, say: (l) => said.push(l), complain: (l) => said.push(l) });
    const sink = out.sink('worker');
    const error = pino({ level: 50, msg: 'scoring failed', err: { message: 'db down' } });
    // Split mid-line, as pipes deliver it.
    const all = `${pino({ msg: 'worker started', taskQueue: 'q', address: 'a' })}\n${error}\n${error}\n${error}\n`;
    sink(Buffer.from(all.slice(0, 30)), 'stdout');
    sink(Buffer.from(all.slice(30)), 'stdout');
    await out.close();
    expect(said).toEqual(['• worker is polling task queue q on Temporal a', '✗ worker: scoring failed: db down']);
    expect(fs.readFileSync(path.join(dataDir, 'logs', 'worker.log'), 'utf8')).toBe(all);
  });
});
