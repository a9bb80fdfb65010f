import { createPriceStore } from '../../../db/market/price-store';
import { createSignalStore } from '../../../db/signals/signal-store';
import { afterBeta, call, useApi } from '../../support/api-harness';
import { issueTestKey } from '../../support/access-keys';
import { insertTestCross, testDelivery } from '../../support/composite-fixtures';
import { expectConforms } from '../../support/contract';

/**
 * Both signal operations through HTTP, every body validated against openapi.yaml: the feed (since=0 is the last
 * hour, tier filter, paging by cursor, Builder and up, no wallet address anywhere), the composite prediction log
 * (newest first, tiered rows only, only_resolved, offset), signals_24h in the stats, the withheld-cross status in
 * /api/health and the stats, and /api/scope stating the composite signal as live.
 */
const now = new Date(Math.floor(Date.now() / 1000) * 1000);
const MIN = 60_000;
const { t, api } = useApi({ now: () => now, env: afterBeta() });

let builder: Awaited<ReturnType<typeof issueTestKey>>;
let free: Awaited<ReturnType<typeof issueTestKey>>;
const delivered: { mint: string; tier: string; id: number }[] = [];
let resolvedMint = '';

beforeAll(async () => {
  builder = await issueTestKey(t.db, 'builder');
  free = await issueTestKey(t.db, 'free');
  const store = createSignalStore(t.db);
  // Two hours ago (outside since=0's hour), then three in the last hour: ACT, WATCH, SCOUT.
  const plan: [number, number | null][] = [
    [120, 0.4],
    [50, 0.3],
    [30, 0.12],
    [10, null],
  ];
  for (const [agoMin, gp60] of plan) {
    const at = now.getTime() - agoMin * MIN;
    const x = await insertTestCross(t.db, { crossedAtMs: at - 30_000 });
    const d = testDelivery(x, gp60, at);
    // A delivery commits with the time it commits: the cursor is set by the database clock, so backdate the row.
    const r = await store.deliver(d);
    await t
      .db('signals')
      .where({ id: r!.id })
      .update({ cursor: at * 1000, delivered_at: new Date(at) });
    delivered.push({ mint: x.mint, tier: d.tier, id: r!.id });
  }
  // One cross still pending its tier (not in the feed, not in the log), one resolved.
  await insertTestCross(t.db, { crossedAtMs: now.getTime() - 20_000 });
  resolvedMint = delivered[0]!.mint;
  await t
    .db('composite_predictions')
    .where({ mint: resolvedMint })
    .update({ label_version: 'v1', did_graduate: true, peak_mult_24h: 3.2, did_sustain_30m: false, resolved_at: now });
}, 60_000);

const get = (path: string, key = builder) => call(`${api.url}${path}`, { headers: key.bearer });

describe('GET /api/v1/signals', () => {
  it('since=0 returns the last hour in cursor order, with no wallet address anywhere', async () => {
    const r = await get('/api/v1/signals');
    expect(r.status).toBe(200);
    expectConforms('get', '/api/v1/signals', 200, r.body);
    expect(r.body.signals.map((s: { mint: string }) => s.mint)).toEqual(delivered.slice(1).map((d) => d.mint));
    expect(r.body.signals.map((s: { tier: string }) => s.tier)).toEqual(['ACT', 'WATCH', 'SCOUT']);
    expect(r.body).toMatchObject({ since: 0, tier: 'all', count: 3, has_more: false, cursor: r.body.signals[2].cursor });
    const scout = r.body.signals[2];
    expect(scout.gp_60).toBeNull();
    expect(scout.features).toMatchObject({ smart_money_in: 2, gp_30: 0.08, rug_holder_concentration: true, rug_flags_triggered: 1 });
    // Every string in a signal is the mint, its name/symbol, the tier, the threshold kind or the time.
    const strings = JSON.stringify(r.body.signals).match(/"[^"]*"/g)!;
    const base58 = strings.filter((s) => /^"[1-9A-HJ-NP-Za-km-z]{32,44}"$/.test(s));
    expect(new Set(base58)).toEqual(new Set(delivered.slice(1).map((d) => `"${d.mint}"`)));
  });

  it('pages by cursor: passing the cursor back continues, an up-to-date cursor gives an empty page', async () => {
    const first = await get('/api/v1/signals?since=1&limit=2');
    expect(first.body).toMatchObject({ count: 2, has_more: true });
    expect(first.body.signals.map((s: { id: number }) => s.id)).toEqual(delivered.slice(0, 2).map((d) => d.id));
    const next = await get(`/api/v1/signals?since=${first.body.cursor}&limit=2`);
    expect(next.body.signals.map((s: { id: number }) => s.id)).toEqual(delivered.slice(2).map((d) => d.id));
    expect(next.body.has_more).toBe(false);
    const empty = await get(`/api/v1/signals?since=${next.body.cursor}`);
    expect(empty.status).toBe(200);
    expectConforms('get', '/api/v1/signals', 200, empty.body);
    expect(empty.body).toMatchObject({ count: 0, cursor: next.body.cursor, has_more: false, signals: [] });
  });

  it('filters by tier', async () => {
    const r = await get('/api/v1/signals?since=1&tier=ACT');
    expect(r.body.signals.map((s: { mint: string }) => s.mint)).toEqual(delivered.filter((d) => d.tier === 'ACT').map((d) => d.mint));
    expect(r.body.tier).toBe('ACT');
  });

  it('refuses bad input with 422 and a free key with 403', async () => {
    for (const q of ['since=-1', 'since=abc', 'limit=0', 'limit=501', 'tier=HOT', 'since=9007199254740992']) {
      const r = await get(`/api/v1/signals?${q}`);
      expect(r.status).toBe(422);
      expectConforms('get', '/api/v1/signals', 422, r.body);
    }
    const r = await get('/api/v1/signals', free);
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('insufficient_tier');
  });
});

describe('GET /api/v1/composite_predictions', () => {
  it('lists tiered crosses newest first, outcomes null until resolved', async () => {
    const r = await get('/api/v1/composite_predictions');
    expect(r.status).toBe(200);
    expectConforms('get', '/api/v1/composite_predictions', 200, r.body);
    expect(r.body).toMatchObject({ limit: 50, offset: 0, only_resolved: false, total: 4, count: 4 });
    expect(r.body.rows.map((x: { mint: string }) => x.mint)).toEqual([...delivered].reverse().map((d) => d.mint));
    const open = r.body.rows[0];
    expect(open).toMatchObject({
      did_graduate: null,
      peak_mult_24h: null,
      did_sustain_30m: null,
      resolved_at: null,
      leaf_version: 1,
      tier_rules_version: 'tiers-v1',
    });
    expect(Date.parse(open.resolves_at) - Date.parse(open.crossed_at)).toBe(86_400_000);
  });

  it('only_resolved and offset', async () => {
    const r = await get('/api/v1/composite_predictions?only_resolved=true');
    expectConforms('get', '/api/v1/composite_predictions', 200, r.body);
    expect(r.body).toMatchObject({ total: 1, count: 1 });
    expect(r.body.rows[0]).toMatchObject({
      mint: resolvedMint,
      did_graduate: true,
      peak_mult_24h: 3.2,
      did_sustain_30m: false,
      label_version: 'v1',
      tier: 'ACT',
    });
    const page = await get('/api/v1/composite_predictions?limit=2&offset=3');
    expect(page.body).toMatchObject({ total: 4, count: 1, offset: 3 });
    const bad = await get('/api/v1/composite_predictions?only_resolved=maybe');
    expect(bad.status).toBe(422);
  });
});

describe('signals in stats, health and scope', () => {
  it('counts signals_24h per tier and reports crosses withheld for want of a price', async () => {
    await t.db('composite_withheld').insert({ mint: 'So11111111111111111111111111111111111111112', reason: 'native_price_unknown', at: now });
    const s = await get('/api/v1/stats');
    expect(s.status).toBe(200);
    expectConforms('get', '/api/v1/stats', 200, s.body);
    expect(s.body.signals_24h).toEqual({ ACT: 2, WATCH: 1, SCOUT: 1 });
    expect(s.body.signals_withheld).toMatchObject({
      state: 'withholding',
      reason: 'native_price_unknown',
      withheld_24h: { native_price_unknown: 1, native_price_stale: 0 },
    });

    let h = await call(`${api.url}/api/health`);
    expectConforms('get', '/api/health', 200, h.body);
    expect(h.body.dependencies.composite_signal).toMatchObject({ state: 'withholding', reason: 'native_price_unknown', native_price_fetched_at: null });

    const prices = createPriceStore(t.db);
    await prices.recordQuote({
      symbol: 'SOL',
      mint: 'So11111111111111111111111111111111111111112',
      usd: 150,
      source: 'test',
      fetchedAt: new Date(now.getTime() - 3_600_000),
    });
    h = await call(`${api.url}/api/health`);
    expect(h.body.dependencies.composite_signal).toMatchObject({ state: 'withholding', reason: 'native_price_stale' });
    await prices.recordQuote({ symbol: 'SOL', mint: 'So11111111111111111111111111111111111111112', usd: 151, source: 'test', fetchedAt: now });
    h = await call(`${api.url}/api/health`);
    expectConforms('get', '/api/health', 200, h.body);
    expect(h.body.dependencies.composite_signal).toMatchObject({ state: 'crossing', reason: null });
  });

  it('/api/scope states the composite signal as live', async () => {
    const r = await call(`${api.url}/api/scope`);
    expectConforms('get', '/api/scope', 200, r.body);
    expect(r.body.predictions.find((p: { field: string }) => p.field === 'composite_signal').status).toBe('live');
  });
});
