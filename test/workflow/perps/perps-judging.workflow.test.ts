import { PERPS_ENTRY_JUDGING_WORKFLOW, perpsEntryWorkflowId, type HorizonOutcome } from '../../../workflows/perps/perps-entry-judging-contract';
import { waitFor } from '../../../scripts/lib/run';
import { call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { createTestDatabase } from '../../support/test-db';
import { startWorker, uniqueId } from '../../support/worker-harness';

/**
 * Horizon judging on the real Temporal server: an entry's judging workflow judges each horizon from the first mark
 * sampled at or after it falls due (waiting while none is), read back through HTTP per openapi.yaml. (The perps
 * ledger track is the audit ledger's: test/e2e/ledger/perps-ledger.test.ts.)
 */
const EXCHANGE = 'hyperliquid-sim';
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
