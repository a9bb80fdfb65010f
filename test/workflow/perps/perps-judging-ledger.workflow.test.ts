import { verifyCommitChain } from '../../../domain/ledger/commit-chain';
import { commitRecordDigestHex } from '../../../domain/ledger/commit-record';
import { digestToHex } from '../../../domain/ledger/ledger-digest';
import { merkleLevels, packDigests } from '../../../domain/ledger/merkle-tree';
import { PERPS_ENTRY_LEAF_V1 } from '../../../domain/perps/perps-entry-leaf';
import { PERPS_ENTRY_JUDGING_WORKFLOW, perpsEntryWorkflowId, type HorizonOutcome } from '../../../workflows/perps/perps-entry-judging-contract';
import { PERPS_LEDGER_WORKFLOW } from '../../../workflows/perps/perps-ledger-contract';
import { waitFor } from '../../../scripts/lib/run';
import { call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { createTestDatabase } from '../../support/test-db';
import { startWorker, uniqueId } from '../../support/worker-harness';

/**
 * Horizon judging and the perps ledger track on the real Temporal server: an entry's judging workflow judges each
 * horizon from the first mark sampled at or after it falls due (waiting while none is), and the ledger workflow
 * commits the closed hours of smart entries as chained merkle roots; both read back through HTTP per openapi.yaml.
 */
const EXCHANGE = 'hyperliquid-sim';
const HOUR = 3_600_000;
const WALLET = '0x1111111111111111111111111111111111111111';
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;
let api: Awaited<ReturnType<typeof startApi>>;
let nextId = 1;

beforeAll(async () => {
  t = await createTestDatabase();
  const env = { PERPS_EXCHANGE: 'simulator' };
  w = await startWorker(t.db, { env });
  api = await startApi(t.db, { env });
  const now = new Date();
  await t.db('perps_markets').insert(
    ['BTC', 'ETH'].map((market) => ({
      exchange: EXCHANGE,
      market,
      mark_px: 100,
      oracle_px: 100,
      funding_rate_hourly: 0.00001,
      open_interest_base: 1,
      open_interest_usd: 100,
      volume_24h_usd: 1000,
      prev_day_px: 100,
      max_leverage: 50,
      updated_at: now,
    })),
  );
  await t.db('perps_wallets').insert({
    exchange: EXCHANGE,
    wallet: WALLET,
    source: 'test',
    discovered_at: now,
    next_snapshot_at: now,
    last_active_at: now,
    smart: true,
    smart_score: 0.8,
  });
}, 60_000);
afterAll(async () => {
  await api.close();
  await w.stop();
  await t.drop();
});

async function entry(o: { market: string; side: 'long' | 'short'; detectedAt: Date; smart?: boolean; price?: number }): Promise<number> {
  const id = nextId++;
  await t.db('perps_entries').insert({
    id,
    exchange: EXCHANGE,
    wallet: WALLET,
    market: o.market,
    side: o.side,
    kind: 'new',
    size: 1.5 + id,
    position_size: 1.5 + id,
    entry_px: 99.5,
    price_at_detection: o.price ?? 100,
    position_value_usd: 150.25 * id,
    notional_usd: 150 * id,
    leverage: 5,
    wallet_roi_30d: 0.125,
    smart_score: 0.8,
    smart: o.smart ?? true,
    whale: false,
    rule_version: 'perps-smart-v1',
    entry_rule_version: 'entry-v1',
    detected_at: o.detectedAt,
  });
  return id;
}
const mark = (market: string, at: number, price: number) => t.db('perps_mark_prices').insert({ exchange: EXCHANGE, market, at: new Date(at), price });
const get = async (path: string, template: string) => {
  const r = await call(`${api.url}${path}`);
  expectConforms('get', template, r.status, r.body);
  return r;
};

describe('perps horizon judging', () => {
  it('judges each horizon from the first mark at or after it falls due, waiting while there is none', async () => {
    const detectedAt = Date.now();
    const long = await entry({ market: 'BTC', side: 'long', detectedAt: new Date(detectedAt) });
    const short = await entry({ market: 'BTC', side: 'short', detectedAt: new Date(detectedAt + 1) }); // one entry per (wallet, market, moment)
    // Due at +1 s, +2 s, +3 s; marks sampled after each (the first sample at or after the due time counts).
    await mark('BTC', detectedAt + 500, 90); // before the first horizon: never used
    await mark('BTC', detectedAt + 1200, 101);
    await mark('BTC', detectedAt + 1500, 120);
    await mark('BTC', detectedAt + 2100, 98);
    const horizons = [
      { horizon: '5m', afterMs: 1000 },
      { horizon: '1h', afterMs: 2000 },
      { horizon: '24h', afterMs: 3000 },
    ];
    const start = (id: number, at: number) =>
      w.client.workflow.start(PERPS_ENTRY_JUDGING_WORKFLOW, {
        taskQueue: w.taskQueue,
        workflowId: `${perpsEntryWorkflowId(id)}-${uniqueId('t')}`,
        args: [{ entryId: id, detectedAt: new Date(at).toISOString(), horizons }],
      });
    const [hl, hs] = [await start(long, detectedAt), await start(short, detectedAt + 1)];
    // The 24 h horizon has no sample yet: its judgment waits (retries) until the markets poll writes one.
    await waitFor('the 1h judgments', async () => Number((await t.db('perps_entry_judgments').count('* as n').first())!.n) === 4, 30_000);
    await new Promise((r) => setTimeout(r, 2500));
    expect(await t.db('perps_entry_judgments').where({ horizon: '24h' })).toEqual([]);
    await mark('BTC', detectedAt + 3300, 103);

    const [rl, rs] = (await Promise.all([hl.result(), hs.result()])) as [HorizonOutcome[], HorizonOutcome[]];
    await w.maybeRecordHistory(hl.workflowId, 'perps-entry-judging');
    const bps = (p: number) => ((p - 100) / 100) * 10_000;
    expect(rl).toEqual([
      { horizon: '5m', status: 'judged', price: 101, moveBps: bps(101), win: true, firstTime: true },
      { horizon: '1h', status: 'judged', price: 98, moveBps: bps(98), win: false, firstTime: true },
      { horizon: '24h', status: 'judged', price: 103, moveBps: bps(103), win: true, firstTime: true },
    ]);
    expect(rs.map((x) => x.status === 'judged' && [x.horizon, x.moveBps, x.win])).toEqual([
      ['5m', -bps(101), false],
      ['1h', -bps(98), true],
      ['24h', -bps(103), false],
    ]);

    // Per market, per wallet and overall: one win and one loss at each horizon, mean move zero.
    const m = await get('/api/perps/market/BTC', '/api/perps/market/{market}');
    expect(m.status).toBe(200);
    expect(m.body.win_rate_by_horizon).toEqual(['5m', '1h', '24h'].map((horizon) => ({ horizon, n: 2, win_rate: 0.5, mean_move_bps: 0 })));
    expect(m.body.recent_entries.map((e: { entry_id: number }) => e.entry_id).sort()).toEqual([long, short]);
    const wl = await get(`/api/perps/wallet/${WALLET}`, '/api/perps/wallet/{address}');
    expect(wl.body.win_rate_by_horizon).toEqual(m.body.win_rate_by_horizon);
    const eth = await get('/api/perps/market/ETH', '/api/perps/market/{market}');
    expect(eth.body.win_rate_by_horizon).toEqual(['5m', '1h', '24h'].map((horizon) => ({ horizon, n: 0, win_rate: null, mean_move_bps: null })));
  }, 120_000);
});

describe('perps ledger track', () => {
  it('commits each closed hour of smart entries as a merkle root chained to the previous one, once', async () => {
    const hourNow = Math.floor(Date.now() / HOUR) * HOUR;
    const h3 = hourNow - 3 * HOUR;
    const h1 = hourNow - HOUR;
    // Two closed hours with smart entries (one entry not smart), an empty hour between, and the running hour.
    const a = [
      await entry({ market: 'ETH', side: 'long', detectedAt: new Date(h3 + 60_000) }),
      await entry({ market: 'BTC', side: 'short', detectedAt: new Date(h3 + 5_000) }),
    ];
    await entry({ market: 'ETH', side: 'long', detectedAt: new Date(h3 + 7_000), smart: false });
    const b = [
      await entry({ market: 'ETH', side: 'short', detectedAt: new Date(h1 + 1_000) }),
      await entry({ market: 'BTC', side: 'long', detectedAt: new Date(h1 + 1_000) }),
      await entry({ market: 'ETH', side: 'long', detectedAt: new Date(h1 + 2_000) }),
    ];
    await entry({ market: 'ETH', side: 'long', detectedAt: new Date(Date.now()) });
    const expectedClosed = Date.now() - 20 * 60_000 >= hourNow; // the last hour settles 20 minutes after it ends

    const ids: string[] = [];
    const run = async () =>
      w.client.workflow.execute(PERPS_LEDGER_WORKFLOW, { taskQueue: w.taskQueue, workflowId: ids[ids.push(uniqueId('perps-ledger')) - 1]! });
    const first = (await run()) as { committed: number; hours: string[] };
    await w.maybeRecordHistory(ids[0]!, 'perps-ledger-commit');
    const want = [new Date(h3).toISOString(), ...(expectedClosed ? [new Date(h1).toISOString()] : [])];
    // The judging test's entries (the current hour) are not committed yet either.
    expect(first.hours.filter((h) => Date.parse(h) >= h3)).toEqual(want);
    expect(await run()).toMatchObject({ committed: 0 });

    const r = await get('/api/perps/ledger/commits', '/api/perps/ledger/commits');
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(r.body.commits.length);
    const mine = [...r.body.commits].reverse().filter((c: { hour_start: string }) => Date.parse(c.hour_start) >= h3);
    // Each root is the merkle root over that hour's smart entries' leaves, in (detected_at, id) order.
    const rows = await t.db('perps_entries').where({ smart: true }).orderBy(['detected_at', 'id']);
    const smartIn = (hourStart: number) =>
      rows.filter((x) => x.detected_at.getTime() >= hourStart && x.detected_at.getTime() < hourStart + HOUR).map((x) => Number(x.id));
    const leavesOf = (ids: number[]) =>
      rows
        .filter((x) => ids.includes(Number(x.id)))
        .map((x) =>
          PERPS_ENTRY_LEAF_V1.build({
            id: Number(x.id),
            exchange: x.exchange,
            wallet: x.wallet,
            market: x.market,
            side: x.side,
            kind: x.kind,
            size: x.size,
            entryPx: x.entry_px,
            priceAtDetection: x.price_at_detection,
            positionValueUsd: x.position_value_usd,
            leverage: x.leverage,
            walletRoi30d: x.wallet_roi_30d,
            smartScore: x.smart_score,
            whale: x.whale,
            ruleVersion: x.rule_version,
            entryRuleVersion: x.entry_rule_version,
            detectedAt: x.detected_at,
          }),
        );
    const rootOf = (ids: number[]) => {
      const levels = merkleLevels(packDigests(leavesOf(ids).map((l) => l.hash)));
      return digestToHex(levels[levels.length - 1]!);
    };
    expect(mine[0]).toMatchObject({ track: 'perps', leaf_count: 2, leaf_version: 1, first_id: a[1], last_id: a[0], merkle_root_hex: rootOf(a) });
    expect(smartIn(h1)).toEqual(expect.arrayContaining(b));
    if (expectedClosed)
      expect(mine[1]).toMatchObject({ leaf_count: smartIn(h1).length, first_id: b[0], merkle_root_hex: rootOf(smartIn(h1)), prev_root_hex: rootOf(a) });
    const records = [...r.body.commits].reverse().map((c: Record<string, any>) => ({
      track: c.track,
      hourStart: new Date(c.hour_start),
      leafVersion: c.leaf_version,
      leafCount: c.leaf_count,
      firstId: c.first_id,
      lastId: c.last_id,
      rootHex: c.merkle_root_hex,
      prevRootHex: c.prev_root_hex,
      digestHex: c.record_digest_hex,
    }));
    expect(verifyCommitChain(records)).toEqual({ ok: true });
    for (const rec of records) expect(rec.digestHex).toBe(commitRecordDigestHex(rec));

    const o = await get('/api/perps/observatory', '/api/perps/observatory');
    expect(o.body.lifetime.ledger_commits).toBe(r.body.count);
    expect((await get('/api/perps/ledger/commits?limit=1', '/api/perps/ledger/commits')).body.commits).toHaveLength(1);
    expect((await get('/api/perps/ledger/commits?limit=0', '/api/perps/ledger/commits')).status).toBe(422);
  }, 120_000);
});
