import { createPriceStore } from '../../../db/market/price-store';
import { createSignalStore } from '../../../db/signals/signal-store';
import { afterBeta, call, useApi } from '../../support/api-harness';
import { issueTestKey } from '../../support/access-keys';
import { insertTestCross, testDelivery } from '../../support/composite-fixtures';
import { expectConforms } from '../../support/contract';
import { keyedApi, typedApi } from '../../support/typed-api';

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

const http = keyedApi(
  () => api.url,
  () => builder,
);
const anonymous = typedApi(() => api.url);

describe('GET /api/v1/signals', () => {
  it('since=0 returns the last hour in cursor order, with no wallet address anywhere', async () => {
    const r = await http.GET('/api/v1/signals');
    expect(r.response.status).toBe(200);
    const feed = r.data!;
    expect(feed.signals.map((s) => s.mint)).toEqual(delivered.slice(1).map((d) => d.mint));
    expect(feed.signals.map((s) => s.tier)).toEqual(['ACT', 'WATCH', 'SCOUT']);
    expect(feed).toMatchObject({ since: 0, tier: 'all', count: 3, has_more: false, cursor: feed.signals[2]!.cursor });
    const scout = feed.signals[2]!;
    expect(scout.gp_60).toBeNull();
    expect(scout.features).toMatchObject({ smart_money_in: 2, gp_30: 0.08, rug_holder_concentration: true, rug_flags_triggered: 1 });
    // Every string in a signal is the mint, its name/symbol, the tier, the threshold kind or the time.
    const strings = JSON.stringify(feed.signals).match(/"[^"]*"/g)!;
    const base58 = strings.filter((s) => /^"[1-9A-HJ-NP-Za-km-z]{32,44}"$/.test(s));
    expect(new Set(base58)).toEqual(new Set(delivered.slice(1).map((d) => `"${d.mint}"`)));
  });

  it('pages by cursor: passing the cursor back continues, an up-to-date cursor gives an empty page', async () => {
    const first = (await http.GET('/api/v1/signals', { params: { query: { since: 1, limit: 2 } } })).data!;
    expect(first).toMatchObject({ count: 2, has_more: true });
    expect(first.signals.map((s) => s.id)).toEqual(delivered.slice(0, 2).map((d) => d.id));
    const next = (await http.GET('/api/v1/signals', { params: { query: { since: first.cursor, limit: 2 } } })).data!;
    expect(next.signals.map((s) => s.id)).toEqual(delivered.slice(2).map((d) => d.id));
    expect(next.has_more).toBe(false);
    const empty = await http.GET('/api/v1/signals', { params: { query: { since: next.cursor } } });
    expect(empty.response.status).toBe(200);
    expect(empty.data).toMatchObject({ count: 0, cursor: next.cursor, has_more: false, signals: [] });
  });

  it('filters by tier', async () => {
    const r = (await http.GET('/api/v1/signals', { params: { query: { since: 1, tier: 'ACT' } } })).data!;
    expect(r.signals.map((s) => s.mint)).toEqual(delivered.filter((d) => d.tier === 'ACT').map((d) => d.mint));
    expect(r.tier).toBe('ACT');
  });

  it('refuses bad input with 422 and a free key with 403', async () => {
    // Raw query strings: since=abc and tier=HOT are input the types forbid, and 2^53 is past a safe JS number.
    for (const q of ['since=-1', 'since=abc', 'limit=0', 'limit=501', 'tier=HOT', 'since=9007199254740992']) {
      const r = await call(`${api.url}/api/v1/signals?${q}`, { headers: builder.bearer });
      expect(r.status).toBe(422);
      expectConforms('get', '/api/v1/signals', 422, r.body);
    }
    const r = await keyedApi(api.url, () => free).GET('/api/v1/signals');
    expect(r.response.status).toBe(403);
    expect(r.error).toMatchObject({ error: 'insufficient_tier' });
  });
});

describe('GET /api/v1/composite_predictions', () => {
  it('lists tiered crosses newest first, outcomes null until resolved', async () => {
    const r = await http.GET('/api/v1/composite_predictions');
    expect(r.response.status).toBe(200);
    expect(r.data).toMatchObject({ limit: 50, offset: 0, only_resolved: false, total: 4, count: 4 });
    expect(r.data!.rows.map((x) => x.mint)).toEqual([...delivered].reverse().map((d) => d.mint));
    const open = r.data!.rows[0]!;
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
    const r = await http.GET('/api/v1/composite_predictions', { params: { query: { only_resolved: true } } });
    expect(r.response.status).toBe(200);
    expect(r.data).toMatchObject({ total: 1, count: 1 });
    expect(r.data!.rows[0]).toMatchObject({
      mint: resolvedMint,
      did_graduate: true,
      peak_mult_24h: 3.2,
      did_sustain_30m: false,
      label_version: 'v1',
      tier: 'ACT',
    });
    const page = await http.GET('/api/v1/composite_predictions', { params: { query: { limit: 2, offset: 3 } } });
    expect(page.data).toMatchObject({ total: 4, count: 1, offset: 3 });
    // only_resolved=maybe is input the types forbid: raw HTTP.
    const bad = await call(`${api.url}/api/v1/composite_predictions?only_resolved=maybe`, { headers: builder.bearer });
    expect(bad.status).toBe(422);
  });
});

describe('signals in stats, health and scope', () => {
  it('counts signals_24h per tier and reports crosses withheld for want of a price', async () => {
    await t.db('composite_withheld').insert({ mint: 'So11111111111111111111111111111111111111112', reason: 'native_price_unknown', at: now });
    const s = await http.GET('/api/v1/stats');
    expect(s.response.status).toBe(200);
    expect(s.data!.signals_24h).toEqual({ ACT: 2, WATCH: 1, SCOUT: 1 });
    expect(s.data!.signals_withheld).toMatchObject({
      state: 'withholding',
      reason: 'native_price_unknown',
      withheld_24h: { native_price_unknown: 1, native_price_stale: 0 },
    });

    const health = async () => {
      const h = await anonymous.GET('/api/health');
      expect(h.response.status).toBe(200);
      return h.data!.dependencies.composite_signal;
    };
    expect(await health()).toMatchObject({ state: 'withholding', reason: 'native_price_unknown', native_price_fetched_at: null });

    const prices = createPriceStore(t.db);
    await prices.recordQuote({
      symbol: 'SOL',
      mint: 'So11111111111111111111111111111111111111112',
      usd: 150,
      source: 'test',
      fetchedAt: new Date(now.getTime() - 3_600_000),
    });
    expect(await health()).toMatchObject({ state: 'withholding', reason: 'native_price_stale' });
    await prices.recordQuote({ symbol: 'SOL', mint: 'So11111111111111111111111111111111111111112', usd: 151, source: 'test', fetchedAt: now });
    expect(await health()).toMatchObject({ state: 'crossing', reason: null });
  });

  it('/api/scope states the composite signal as live', async () => {
    const r = await anonymous.GET('/api/scope');
    expect(r.response.status).toBe(200);
    expect(r.data!.predictions.find((p) => p.field === 'composite_signal')!.status).toBe('live');
  });
});
