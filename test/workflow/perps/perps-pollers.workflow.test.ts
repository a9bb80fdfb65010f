import { toWalletFill } from '../../../clients/hyperliquid/hyperliquid-mapping';
import { detectEntries } from '../../../domain/perps/entry-detection';
import { fundingApr } from '../../../domain/perps/observatory-rules';
import type { WalletSnapshot } from '../../../domain/perps/perps-types';
import { judgeWallet } from '../../../domain/perps/smart-rule';
import { walletRecord } from '../../../domain/perps/wallet-record';
import { startPerpsStream, type PerpsStreamRunner } from '../../../ingest/perps-stream/run-perps-stream';
import { loadConfig } from '../../../platform/config';
import { createLogger } from '../../../platform/logger';
import { waitFor } from '../../../scripts/lib/run';
import { PERPS_LEADERBOARD_WORKFLOW, type LeaderboardDiscoveryResult } from '../../../workflows/perps/perps-leaderboard-contract';
import { PERPS_MARKETS_WORKFLOW } from '../../../workflows/perps/perps-markets-contract';
import { PERPS_RANKINGS_WORKFLOW } from '../../../workflows/perps/perps-rankings-contract';
import { PERPS_SNAPSHOT_SWEEP_WORKFLOW, type SweepResult } from '../../../workflows/perps/perps-snapshot-sweep-contract';
import { call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { startPerpsSim, type PerpsSim } from '../../support/perps-sim';
import { createTestDatabase } from '../../support/test-db';
import { startWorker, uniqueId } from '../../support/worker-harness';

/**
 * The live exchange's pollers on the real Temporal server against the simulated Hyperliquid (the production client
 * over the real wire format): the markets poll, discovery and pokes from the trades stream, the snapshot sweep and
 * entry detection from consecutive snapshots, the daily ranks; each checked against the simulator's own state and
 * through HTTP against openapi.yaml.
 */
const MIN = 60_000;
const EXCHANGE = 'hyperliquid-sim';
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;
let api: Awaited<ReturnType<typeof startApi>>;
let s: PerpsSim;
let stream: PerpsStreamRunner | undefined;

beforeAll(async () => {
  t = await createTestDatabase();
  s = await startPerpsSim({ startAt: Date.now() - 60 * MIN });
  const env = {
    ...s.env,
    PERPS_SNAPSHOT_HOT_S: '5',
    PERPS_SNAPSHOT_COLD_S: '5',
    PERPS_SNAPSHOT_SWEEP_S: '120',
    PERPS_MARKETS_INTERVAL_S: '120',
    PERPS_DISCOVERY_MIN_NOTIONAL_USD: '20000',
    PERPS_LEADERBOARD_TOP: '15',
    PERPS_LEADERBOARD_MIN_ACCOUNT_USD: '20000',
  };
  w = await startWorker(t.db, { env, overrides: { perps: { info: s.client(), weightPerMinute: 1_000_000 } } });
  api = await startApi(t.db, { env });
}, 60_000);
afterAll(async () => {
  await stream?.stop();
  await api.close();
  await w.stop();
  await s.close();
  await t.drop();
});

const execute = async <T>(type: string, name: string): Promise<T> => {
  const workflowId = uniqueId(name);
  const r = await w.client.workflow.execute(type, { taskQueue: w.taskQueue, workflowId });
  await w.maybeRecordHistory(workflowId, name);
  return r as T;
};
const get = async (path: string, template: string) => {
  const r = await call(`${api.url}${path}`);
  expectConforms('get', template, r.status, r.body);
  return r;
};
const fillsIn = (from: number, to: number, pred: (f: { px: number; sz: number }) => boolean = () => true) =>
  new Set(s.sim.wallets.filter((x) => x.fills.some((f) => f.time > from && f.time <= to && pred(f))).map((x) => x.address));

describe('perps pollers against the simulated exchange', () => {
  it('polls the markets and their asset contexts, and the observatory reports them', async () => {
    const expected = await s.client().markets();
    const r = await execute<{ markets: number; exchange: string }>(PERPS_MARKETS_WORKFLOW, 'perps-markets-poll');
    expect(r).toMatchObject({ markets: s.sim.markets.size, exchange: EXCHANGE });
    const rows = (await t.db('perps_markets').where({ exchange: EXCHANGE })).sort((a, b) => a.market.localeCompare(b.market));
    expect(rows.map((x) => [x.market, x.mark_px, x.funding_rate_hourly, x.volume_24h_usd])).toEqual(
      [...expected].sort((a, b) => a.market.localeCompare(b.market)).map((m) => [m.market, m.markPx, m.fundingRateHourly, m.volume24hUsd]),
    );
    expect(await t.db('perps_mark_prices').count('* as n').first()).toEqual({ n: expected.length });

    const o = await get('/api/perps/observatory', '/api/perps/observatory');
    expect(o.status).toBe(200);
    // The snapshot sweep has never run: the live exchange is not watched yet.
    expect(o.body.exchanges).toEqual([
      { exchange: EXCHANGE, status: 'down', markets: expected.length, last_update_at: expect.any(String) },
      { exchange: 'exchange_a', status: 'down', markets: 0, last_update_at: null },
    ]);
    const byFunding = [...expected].sort((a, b) => Math.abs(b.fundingRateHourly) - Math.abs(a.fundingRateHourly) || a.market.localeCompare(b.market));
    expect(o.body.top_funding.map((f: { market: string }) => f.market)).toEqual(byFunding.map((m) => m.market));
    for (const f of o.body.top_funding) expect(f.funding_rate_apr).toBeCloseTo(fundingApr(f.funding_rate_hourly), 12);
    const byVolume = [...expected].sort((a, b) => b.volume24hUsd - a.volume24hUsd);
    expect(o.body.top_volume_24h.map((v: { market: string; volume_24h_usd: number }) => [v.market, v.volume_24h_usd])).toEqual(
      byVolume.map((m) => [m.market, m.volume24hUsd]),
    );
    expect(o.body.lifetime).toEqual({ wallets_tracked: 0, entries_logged: 0, smart_entries: 0, ledger_commits: 0, since: null });
  }, 240_000);

  it('watches the takers of large trades on the trades stream, and pokes watched wallets that trade', async () => {
    const cfg = loadConfig({ ...s.env, PERPS_DISCOVERY_MIN_NOTIONAL_USD: '20000' });
    const open = () =>
      startPerpsStream({ cfg, db: t.db, log: createLogger('silent', 'perps-stream-test'), timings: { flushMs: 100, watchedRefreshMs: 300, progressMs: 300 } });
    stream = open();
    await waitFor('the stream to follow every market', async () => stream!.coins().length === s.sim.markets.size && s.hl.connections() === 1, 20_000);
    await new Promise((r) => setTimeout(r, 300)); // the subscriptions are acknowledged

    const t0 = s.now();
    s.advance(20 * MIN);
    const large = fillsIn(t0, s.now(), (f) => f.px * f.sz >= 20_000);
    expect(large.size).toBeGreaterThan(10);
    const watched = async () => new Set((await t.db('perps_wallets').where({ exchange: EXCHANGE, watched: true })).map((r) => r.wallet));
    await waitFor('the large takers to be watched', async () => (await watched()).size >= large.size, 20_000);
    expect(await watched()).toEqual(large);
    const rows = await t.db('perps_wallets').where({ exchange: EXCHANGE });
    expect(rows.every((r) => r.source === 'trades-stream:discovery-v1' && r.poked_at !== null)).toBe(true);

    // A fresh stream (a restarted ingest daemon) starts from the watched set in the database, with nothing pending.
    await stream.stop();
    await t.db('perps_wallets').update({ poked_at: null });
    stream = open();
    await waitFor(
      'the new stream to follow every market',
      async () => stream!.coins().length === s.sim.markets.size && stream!.consumer.watchedCount() === large.size,
      20_000,
    );
    await waitFor('its subscriptions', async () => s.hl.subscriptions().length === 1 && s.hl.subscriptions()[0]!.trades.length === s.sim.markets.size, 20_000);
    await new Promise((r) => setTimeout(r, 300));
    const t1 = s.now();
    s.advance(5 * MIN);
    // Watched wallets that traded are poked; takers of large trades not watched yet are discovered, poked as well.
    const traded = new Set([...fillsIn(t1, s.now())].filter((a) => large.has(a)));
    for (const a of fillsIn(t1, s.now(), (f) => f.px * f.sz >= 20_000)) traded.add(a);
    expect(traded.size).toBeGreaterThan(0);
    const poked = async () => new Set((await t.db('perps_wallets').whereNotNull('poked_at').andWhere({ watched: true })).map((r) => r.wallet));
    await waitFor('the watched traders to be poked', async () => (await poked()).size >= traded.size, 20_000);
    expect(await poked()).toEqual(traded);
    await stream.stop();
    stream = undefined;
  }, 240_000);

  it('snapshots the watched wallets: a baseline and records first, then entries from consecutive snapshots', async () => {
    const watched: string[] = (await t.db('perps_wallets').where({ exchange: EXCHANGE, watched: true })).map((r) => r.wallet);
    await t.db('perps_wallets').update({ next_snapshot_at: new Date(Date.now() - 1000) });
    const first = await execute<SweepResult>(PERPS_SNAPSHOT_SWEEP_WORKFLOW, 'perps-sweep-baseline');
    expect(first).toMatchObject({ due: watched.length, snapshotted: watched.length, entries: 0, failed: 0, fillRefreshes: watched.length });

    // Records and smart verdicts are the domain's over the wallet's own fills and state.
    const c = s.client();
    for (const wallet of watched.slice(0, 25)) {
      const state = await c.clearinghouseState(wallet);
      const rec = walletRecord(wallet, (await c.userFills(wallet)).map(toWalletFill), state, state.at);
      const row = await t.db('perps_wallets').where({ exchange: EXCHANGE, wallet }).first();
      expect(row.record).toEqual(rec);
      expect([row.smart, row.smart_score]).toEqual([judgeWallet(rec).smart, judgeWallet(rec).smartScore]);
    }

    // Half an hour later on the exchange: what two snapshots of each wallet say is what the sweep logs.
    const before = new Map<string, WalletSnapshot>();
    for (const r of await t.db('perps_position_snapshots').whereIn('wallet', watched))
      before.set(r.wallet, { wallet: r.wallet, at: r.at.getTime(), accountValueUsd: r.account_value_usd, positions: r.positions });
    s.advance(30 * MIN);
    const marks = Object.fromEntries((await t.db('perps_markets').where({ exchange: EXCHANGE })).map((m) => [m.market, m.mark_px]));
    const expected: string[] = [];
    for (const wallet of watched) {
      const next = await c.clearinghouseState(wallet);
      const row = await t.db('perps_wallets').where({ exchange: EXCHANGE, wallet }).first();
      const verdict = judgeWallet({ ...row.record, largestPositionUsd: Math.max(0, ...next.positions.map((p) => p.positionValueUsd)) });
      for (const e of detectEntries(before.get(wallet)!, next, { marks, walletRoi30d: row.roi_30d, verdict }))
        expected.push(`${e.wallet} ${e.market} ${e.side} ${e.kind} ${e.size} ${e.detectedAt}`);
    }
    expect(expected.length).toBeGreaterThan(5);
    await t.db('perps_wallets').update({ next_snapshot_at: new Date(Date.now() - 1000) });
    const second = await execute<SweepResult>(PERPS_SNAPSHOT_SWEEP_WORKFLOW, 'perps-sweep-entries');
    expect(second).toMatchObject({ snapshotted: watched.length, failed: 0 });
    const entries = await t.db('perps_entries').orderBy('id');
    expect(entries.map((e) => `${e.wallet} ${e.market} ${e.side} ${e.kind} ${e.size} ${e.detected_at.getTime()}`).sort()).toEqual(expected.sort());
    expect(second.entries).toBe(expected.length);
    expect(second.judgingStarted).toBe(entries.filter((e) => e.smart).length);

    // Each new position is one the simulated wallet really opened (or flipped) in between.
    for (const e of entries.filter((x) => x.kind === 'new')) {
      const p = s.sim.wallet(e.wallet)!.positions.get(e.market)!;
      expect(p.openedAt).toBeGreaterThan(before.get(e.wallet)!.at);
      expect(p.size > 0 ? 'long' : 'short').toBe(e.side);
      expect(e.price_at_detection).toBe(marks[e.market]);
    }
    // Liquidations seen are backed by a liquidation fill of the wallet in between.
    for (const l of await t.db('perps_liquidations')) {
      const fills = s.sim.wallet(l.wallet)!.fills.filter((f) => f.coin === l.market && f.liquidation);
      expect(fills.some((f) => f.time > before.get(l.wallet)!.at)).toBe(true);
    }

    // Open positions are the latest snapshot's, opened at the entry that opened them.
    const sample = entries.find((e) => e.kind === 'new')!;
    const wallet = await get(`/api/perps/wallet/${sample.wallet.toUpperCase().replace('0X', '0x')}`, '/api/perps/wallet/{address}');
    expect(wallet.status).toBe(200);
    const state = await c.clearinghouseState(sample.wallet);
    expect(wallet.body.open_positions.map((p: { market: string; side: string; size: number }) => `${p.market} ${p.side} ${p.size}`).sort()).toEqual(
      state.positions.map((p) => `${p.market} ${p.side} ${p.size}`).sort(),
    );
    const opened = wallet.body.open_positions.find((p: { market: string }) => p.market === sample.market);
    expect(opened.opened_at).toBe(sample.detected_at.toISOString());
    expect(wallet.body.recent_entries.map((e: { entry_id: number }) => e.entry_id)).toContain(Number(sample.id));
    const rec = (await t.db('perps_wallets').where({ wallet: sample.wallet }).first()).record;
    expect(wallet.body.lifetime).toMatchObject({ trades: rec.trades, volume_usd: rec.volumeUsd, realized_pnl_usd: rec.realizedPnlUsd, win_rate: rec.winRate });

    // Both pollers succeeded within their last 3 periods (the markets poll again: this test may outlast 3 × 30 s).
    await w.client.workflow.execute(PERPS_MARKETS_WORKFLOW, { taskQueue: w.taskQueue, workflowId: uniqueId('perps-markets-again') });
    const o = await get('/api/perps/observatory', '/api/perps/observatory');
    expect(o.body.exchanges[0].status).toBe('ok');
    // The API runs at the default budget (900 weight/min × 0.8 = 6 snapshots/s, 5.4 planned): 5 s for every watched
    // wallet does not fit, so it reports the cadence the budget keeps (the documented rule: cold stretched first;
    // hot wallets that alone need over 3/4 of it get 3/4 and the cold ones 1/4).
    const hot = Number(
      (await t
        .db('perps_wallets')
        .where({ exchange: EXCHANGE, watched: true })
        .where((q) => q.where({ smart: true }).orWhere({ whale: true }))
        .count('* as n')
        .first())!.n,
    );
    const cold = watched.length - hot;
    const effective =
      hot / 5 <= 5.4 * 0.75
        ? { hot_s: 5, cold_s: Math.max(5, Math.ceil(cold / (5.4 - hot / 5))) }
        : { hot_s: Math.max(5, Math.ceil(hot / 4.05)), cold_s: Math.max(5, Math.ceil(cold / 1.35)) };
    expect(o.body.snapshot_cadence).toEqual({
      watched_hot: hot,
      watched_cold: cold,
      capacity_per_s: 6,
      configured: { hot_s: 5, cold_s: 5 },
      effective,
      fits: false,
    });
    expect(hot / effective.hot_s + cold / effective.cold_s).toBeLessThanOrEqual(5.4);
    // The worker's budget here is unbounded: every wallet is due again 5 s after its snapshot.
    for (const r of await t.db('perps_wallets').where({ exchange: EXCHANGE, watched: true }).whereNull('poked_at'))
      expect(r.next_snapshot_at.getTime() - r.last_snapshot_at.getTime()).toBeGreaterThanOrEqual(4_000);
    expect(o.body.lifetime).toMatchObject({
      wallets_tracked: watched.length,
      entries_logged: entries.length,
      smart_entries: entries.filter((e) => e.smart).length,
    });

    const unknown = await get('/api/perps/wallet/0x0000000000000000000000000000000000000bad', '/api/perps/wallet/{address}');
    expect(unknown.status).toBe(404);
    const bad = await get('/api/perps/wallet/not-an-address', '/api/perps/wallet/{address}');
    expect(bad.status).toBe(422);
  }, 240_000);

  it('ranks the smart wallets of the day by smart score, and shows a wallet its rank', async () => {
    const r = await execute<{ ranked: number; scored: number }>(PERPS_RANKINGS_WORKFLOW, 'perps-rankings');
    const smart = await t
      .db('perps_wallets')
      .where({ exchange: EXCHANGE, watched: true, smart: true })
      .orderBy([{ column: 'smart_score', order: 'desc' }, 'wallet']);
    expect(r.ranked).toBe(smart.length);
    expect(smart.length).toBeGreaterThan(0);
    const top = await get(`/api/perps/wallet/${smart[0].wallet}`, '/api/perps/wallet/{address}');
    expect(top.body.leaderboard_history).toEqual([{ date: new Date().toISOString().slice(0, 10), rank: 1, smart_score: smart[0].smart_score }]);
    const market = await t.db('perps_positions as p').join('perps_wallets as w', 'w.wallet', 'p.wallet').where('w.smart', true).first('p.market');
    const m = await get(`/api/perps/market/${market.market}`, '/api/perps/market/{market}');
    expect(m.status).toBe(200);
    const positions = await t
      .db('perps_positions as p')
      .join('perps_wallets as w', 'w.wallet', 'p.wallet')
      .where({ 'w.smart': true, 'p.market': market.market });
    expect(m.body.smart_money.long_wallets + m.body.smart_money.short_wallets).toBe(positions.length);
    expect(m.body.price_series.length).toBeGreaterThan(0);
    expect((await get('/api/perps/market/NOPE', '/api/perps/market/{market}')).status).toBe(404);
  }, 240_000);

  it('watches the top of the exchange leaderboard: by 30-day PnL among accounts worth at least the minimum', async () => {
    // leaderboard-v1 computed from the simulated wallets themselves: PnL of their fills over 30 days, less fees.
    const now = s.now();
    const month = s.sim.wallets
      .map((x) => {
        const recent = x.fills.filter((f) => now - f.time <= 30 * 86_400_000);
        return { wallet: x.address, equity: x.equity, pnl: recent.reduce((a, f) => a + f.closedPnl - f.fee, 0), volume: recent.length };
      })
      .filter((x) => x.equity >= 20_000 && x.volume > 0 && x.pnl > 0)
      .sort((a, b) => b.pnl - a.pnl);
    const expected = month.slice(0, 15).map((x) => x.wallet.toLowerCase());
    expect(expected).toHaveLength(15);
    const before = new Set((await t.db('perps_wallets').where({ exchange: EXCHANGE, watched: true })).map((r) => r.wallet));
    const r = await execute<LeaderboardDiscoveryResult>(PERPS_LEADERBOARD_WORKFLOW, 'perps-leaderboard');
    expect(r).toEqual({
      exchange: EXCHANGE,
      rows: s.sim.wallets.length,
      picked: 15,
      added: expected.filter((x) => !before.has(x)).length,
      rule: 'leaderboard:leaderboard-v1',
    });
    const rows = await t.db('perps_wallets').where({ exchange: EXCHANGE }).whereIn('wallet', expected);
    expect(rows.map((x) => x.wallet).sort()).toEqual([...expected].sort());
    for (const x of rows) expect(x.watched).toBe(true);
    for (const x of rows.filter((y) => !before.has(y.wallet))) expect(x.source).toBe('leaderboard:leaderboard-v1');
    // Again: nothing new to add (idempotent).
    expect((await execute<LeaderboardDiscoveryResult>(PERPS_LEADERBOARD_WORKFLOW, 'perps-leaderboard-again')).added).toBe(0);
  }, 120_000);
});
