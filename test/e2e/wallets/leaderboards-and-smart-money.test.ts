import { createLiveTick } from '../../../activities';
import { toWalletRecord } from '../../../db/wallets/wallet-read-store';
import { areaContext } from '../../support/area-context';
import { afterBeta, call, useApi } from '../../support/api-harness';
import { issueTestKey } from '../../support/access-keys';
import { expectConforms } from '../../support/contract';
import { keyedApi } from '../../support/typed-api';
import { buildWalletHistory } from '../../support/wallet-history';

/**
 * The leaderboards and smart money end to end on a simulated market resolved with the real activities: every
 * leaderboard kind read through HTTP (validated against openapi.yaml) equals the ranking computed here from the
 * records with the documented formulas, never shows a full address, and is Pro and up; the projector's live list,
 * runners and probe carry `smart_money_in` and `top_buyers[].smart_score`, and `/api/v1/smart_money_active` lists
 * exactly the live mints with enough smart buyers, in the documented order. A short history has no wallet with 8
 * launches, so the smart criteria are configured down (min_total 2, smart_score ≥ 0) to give the market smart wallets.
 */
const now = new Date(Math.floor(Date.now() / 1000) * 1000);
const env = { WALLETS_SMART_MIN_TOTAL: '2', WALLETS_SMART_MIN_SCORE: '0', WALLETS_READ_CACHE_MS: '0' };
const { t, api } = useApi({ now: () => now, env: { ...afterBeta(), ...env } });

type Row = ReturnType<typeof toWalletRecord>;
let records: Row[];
let pro: Awaited<ReturnType<typeof issueTestKey>>;
const http = keyedApi(
  () => api.url,
  () => pro,
);
beforeAll(async () => {
  await buildWalletHistory(t.db, { now, seed: 31, minutes: 30, horizonMin: 10, env });
  await createLiveTick(areaContext(t.db, { env, now: () => now })).refreshLiveSnapshot();
  records = (await t.db('wallet_records')).map(toWalletRecord);
  pro = await issueTestKey(t.db, 'pro');
}, 240_000);

/** The documented formulas (openapi.yaml, README "Wallet index"), written out here independently of domain/wallets. */
const smartV1 = (r: Row) => (r.graduated - r.rugged - 1) / (r.total + 5);
const expectedRanking = (kind: 'smart' | 'sniper' | 'service', minTotal: number) => {
  const rows = records.filter((r) => r.total >= minTotal);
  const ranked =
    kind === 'smart'
      ? rows.map((r) => ({ r, score: smartV1(r), tie: r.total }))
      : kind === 'sniper'
        ? rows.filter((r) => 10 * r.fastSnipes >= 7 * r.total).map((r) => ({ r, score: (r.snipedRugged + 1.05) / (r.fastSnipes + 5), tie: r.fastSnipes }))
        : rows.filter((r) => r.earlyGraduated >= 1).map((r) => ({ r, score: (r.earlyGraduated + 0.05) / (r.total + 5), tie: r.earlyGraduated }));
  return ranked.sort((a, b) => b.score - a.score || b.tie - a.tie || (a.r.wallet < b.r.wallet ? -1 : 1));
};

describe('the leaderboards through HTTP', () => {
  it.each([
    ['smart', 'smart', 1],
    ['sniper', 'sniper', 1],
    ['service', 'service', 1],
    ['graduate', 'service', 1],
    ['smart', 'smart', 8],
    ['sniper', 'sniper', 2],
  ] as const)('kind=%s answers the %s ranking from min_total %i, by prefix only', async (asked, kind, minTotal) => {
    const r = await http.GET('/api/v1/wallets/leaderboard', { params: { query: { kind: asked, limit: 200, min_total: minTotal } } });
    expect(r.response.status).toBe(200);
    const expected = expectedRanking(kind, minTotal).slice(0, 200);
    expect(r.data).toMatchObject({ kind, min_total: minTotal });
    expect(r.data!.wallets.map((w) => [w.rank, w.wallet_prefix, w.total])).toEqual(expected.map((e, i) => [i + 1, e.r.wallet.slice(0, 12), e.r.total]));
    r.data!.wallets.forEach((w, i) => expect(w.score).toBeCloseTo(expected[i]!.score, 12));
    const body = JSON.stringify(r.data);
    for (const e of expected) expect(body).not.toContain(e.r.wallet);
  });

  it('has enough of each kind on this market to mean something', () => {
    expect(expectedRanking('smart', 1).length).toBeGreaterThan(200);
    expect(expectedRanking('sniper', 1).length).toBeGreaterThan(50);
    expect(expectedRanking('service', 1).length).toBeGreaterThan(50);
    expect(expectedRanking('smart', 8).length).toBeGreaterThan(0);
  });

  it('takes limit, is Pro and up, and answers 422 to an unknown kind', async () => {
    const r = await http.GET('/api/v1/wallets/leaderboard', { params: { query: { kind: 'sniper', limit: 7, min_total: 1 } } });
    expect(r.data!.wallets).toHaveLength(7);
    const builder = await issueTestKey(t.db, 'builder');
    expect((await keyedApi(api.url, () => builder).GET('/api/v1/wallets/leaderboard')).response.status).toBe(403);
    // An unknown kind is input the types forbid: raw HTTP, its 422 checked against openapi.yaml.
    const bad = await call(`${api.url}/api/v1/wallets/leaderboard?kind=whales`, { headers: pro.bearer });
    expect(bad.status).toBe(422);
    expectConforms('get', '/api/v1/wallets/leaderboard', 422, bad.body);
  });
});

describe('smart money on every enriched mint', () => {
  // smart_money_in is never null on the keyed lists (only the public /api/live withholds it).
  type Mint = { mint: string; grad_prob: number | null; smart_money_in: number; top_buyers: { wallet_prefix: string; smart_score: number | null }[] };

  /** A top buyer's record by its prefix (prefixes are unique on this market: checked). */
  const byPrefix = (p: string) => {
    const found = records.filter((r) => r.wallet.startsWith(p));
    expect(found.length).toBeLessThanOrEqual(1);
    return found[0];
  };

  it('gives each top buyer its published score and counts the smart ones, on the live list, runners and probe', async () => {
    const live = await http.GET('/api/v1/live', { params: { query: { limit: 200 } } });
    expect(live.response.status).toBe(200);
    const mints = live.data!.mints as Mint[];
    let scored = 0;
    for (const m of mints) {
      let smart = 0;
      for (const b of m.top_buyers) {
        const r = byPrefix(b.wallet_prefix);
        const expected = r && r.total >= 2 ? smartV1(r) : null;
        if (expected === null) expect(b.smart_score).toBeNull();
        else expect(b.smart_score).toBeCloseTo(expected, 12);
        if (expected !== null) scored++;
        if (expected !== null && expected >= 0) smart++;
      }
      expect([m.mint, m.smart_money_in]).toEqual([m.mint, smart]);
    }
    expect(scored).toBeGreaterThan(10);
    const withSmart = mints.filter((m) => m.smart_money_in > 0);
    expect(withSmart.length).toBeGreaterThan(5);

    const probe = await http.GET('/api/v1/probe/{mint}', { params: { path: { mint: withSmart[0]!.mint } } });
    expect(probe.response.status).toBe(200);
    expect(JSON.stringify(probe.data)).toContain(`"smart_money_in":${withSmart[0]!.smart_money_in}`);

    const runners = await http.GET('/api/v1/runners');
    expect(runners.response.status).toBe(200);
  });

  it('lists in /api/v1/smart_money_active exactly the live mints with min_smart smart buyers, by count then grad_prob', async () => {
    const live = (await http.GET('/api/v1/live', { params: { query: { limit: 200 } } })).data!.mints as Mint[];
    for (const minSmart of [1, 2]) {
      const r = await http.GET('/api/v1/smart_money_active', { params: { query: { min_smart: minSmart, limit: 100 } } });
      expect(r.response.status).toBe(200);
      expect(r.data).toMatchObject({ min_smart: minSmart, min_total: 2, min_smart_score: 0, smart_score_version: 'smart-v1' });
      const expected = live
        .filter((m) => m.smart_money_in >= minSmart)
        .sort((a, b) => b.smart_money_in - a.smart_money_in || (b.grad_prob ?? -1) - (a.grad_prob ?? -1) || (a.mint < b.mint ? -1 : 1));
      expect(r.data!.mints.map((m) => [m.mint, m.smart_money_in])).toEqual(expected.map((m) => [m.mint, m.smart_money_in]));
      for (const m of r.data!.mints) {
        expect(m.smart_wallet_count).toBe(m.smart_money_in);
        expect(m.smart_wallets.map((w) => w.wallet_prefix).sort()).toEqual(
          m.top_buyers
            .filter((b) => b.smart_score !== null && b.smart_score >= 0)
            .map((b) => b.wallet_prefix)
            .sort(),
        );
      }
      expect(r.data!.count).toBeGreaterThan(0);
    }
    const limited = await http.GET('/api/v1/smart_money_active', { params: { query: { limit: 2 } } });
    expect(limited.data!.mints).toHaveLength(2);
  });
});
