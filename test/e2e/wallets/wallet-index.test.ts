import bs58 from 'bs58';
import { createLaunchEventStore } from '../../../db/mint/launch-event-store';
import { readResolvedMints } from '../../../db/wallets/resolved-mint-reader';
import { toWalletRecord } from '../../../db/wallets/wallet-read-store';
import { mintContributions } from '../../../domain/wallets/wallet-contribution';
import { rebuildRecord } from '../../../domain/wallets/wallet-record';
import { publicKey } from '../../../ingest/simulator/address-book';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';
import { afterBeta, useApi } from '../../support/api-harness';
import { issueTestKey } from '../../support/access-keys';
import { keyedApi, typedApi } from '../../support/typed-api';
import { handBuiltMint } from '../../support/hand-built-mint';
import { buildWalletHistory } from '../../support/wallet-history';

/**
 * The wallet index end to end on a simulated market: launches resolved with the real activities, every record
 * checked against the trades by an independent SQL aggregate, then read through HTTP (validated against
 * openapi.yaml): lookups by full address and by prefix (a shared prefix answers both), verification, stats; a
 * retried application and a re-resolved mint never count twice.
 */
const now = new Date(Math.floor(Date.now() / 1000) * 1000);
const MIN = 60_000;
const { t, api } = useApi({ now: () => now, env: { ...afterBeta(), WALLETS_READ_CACHE_MS: '0' } });

let history: Awaited<ReturnType<typeof buildWalletHistory>>;
let free: Awaited<ReturnType<typeof issueTestKey>>;
const http = keyedApi(
  () => api.url,
  () => free,
);
const anonymous = typedApi(() => api.url);
beforeAll(async () => {
  history = await buildWalletHistory(t.db, { now, seed: 23, minutes: 25, horizonMin: 10 });
  free = await issueTestKey(t.db, 'free');
}, 180_000);

const records = async () => (await t.db('wallet_records').orderBy('wallet')).map((r) => ({ ...toWalletRecord(r), updatedAt: r.updated_at }));

/** Each wallet's counts straight from trades and labels: buys of resolved mints up to their horizon, the creator left out. */
async function countsFromTrades() {
  const r = await t.db.raw(
    `WITH h AS (SELECT * FROM unnest(?::text[], ?::timestamptz[]) AS h(mint, horizon_at)),
     b AS (SELECT t.trader AS wallet, t.mint, count(*) AS buys, sum(t.sol_lamports) AS sol, min(t.at) AS first_at
           FROM trades t JOIN h ON h.mint = t.mint AND t.at <= h.horizon_at JOIN mints m ON m.mint = t.mint
           WHERE t.is_buy AND t.trader <> m.creator GROUP BY 1, 2)
     SELECT b.wallet, count(*)::int AS total, (count(*) FILTER (WHERE o.graduated))::int AS graduated,
       (count(*) FILTER (WHERE o.rugged))::int AS rugged,
       (count(*) FILTER (WHERE b.first_at <= m.created_at + interval '3 seconds'))::int AS fast_snipes,
       (count(*) FILTER (WHERE b.first_at <= m.created_at + interval '60 seconds' AND o.graduated))::int AS early_graduated,
       sum(b.buys)::int AS buys, sum(b.sol)::bigint AS sol, min(b.first_at) AS first_seen
     FROM b JOIN mint_outcomes o ON o.mint = b.mint JOIN mints m ON m.mint = b.mint GROUP BY b.wallet ORDER BY b.wallet COLLATE "C"`,
    [history.resolved.map((c) => c.mint), history.resolved.map((c) => history.horizonOf(c))],
  );
  return r.rows as {
    wallet: string;
    total: number;
    graduated: number;
    rugged: number;
    fast_snipes: number;
    early_graduated: number;
    buys: number;
    sol: number;
    first_seen: Date;
  }[];
}

describe('the wallet index on a simulated market', () => {
  it('holds one record per buyer of a resolved launch, each equal to its trades and labels', async () => {
    const expected = await countsFromTrades();
    const got = await records();
    expect(got.length).toBeGreaterThan(500);
    expect(
      got.map((r) => [r.wallet, r.total, r.graduated, r.rugged, r.fastSnipes, r.earlyGraduated, r.buys, r.solInvestedLamports, r.firstSeenAt?.getTime()]),
    ).toEqual(expected.map((e) => [e.wallet, e.total, e.graduated, e.rugged, e.fast_snipes, e.early_graduated, e.buys, e.sol, e.first_seen.getTime()]));
    for (const r of got) expect(r.graduated + r.mid + r.rugged).toBe(r.total);
    // Runners (peak ≥ 5× the wallet's own entry) through the domain's fold, for the wallets with the most launches.
    const resolved = await readResolvedMints(
      t.db,
      history.resolved.map((c) => ({ mint: c.mint, horizonAt: history.horizonOf(c) })),
    );
    const all = resolved.flatMap(mintContributions);
    for (const r of [...got].sort((a, b) => b.total - a.total).slice(0, 20)) {
      const { updatedAt: _u, ...record } = r;
      expect(record).toEqual(
        rebuildRecord(
          r.wallet,
          all.filter((c) => c.wallet === r.wallet),
        ),
      );
    }
    expect(got.some((r) => r.ran > 0)).toBe(true);
    expect(got.some((r) => r.fastSnipes > 0) && got.some((r) => r.earlyGraduated > 0) && got.some((r) => r.rugged > 0)).toBe(true);
  });

  it('counts a mint once per buyer however often it is applied, and moves counts once when its label is repaired', async () => {
    const before = await records();
    for (const c of history.resolved.slice(0, 40))
      await history.wallets.applyWalletContributions({ mint: c.mint, horizonAt: history.horizonOf(c).toISOString() });
    expect((await records()).map(({ updatedAt: _u, ...r }) => r)).toEqual(before.map(({ updatedAt: _u, ...r }) => r));

    // A mid (neither graduated nor rugged) re-labelled rugged: its buyers move one launch from mid to rugged.
    const mids = await t
      .db('mint_outcomes')
      .whereIn(
        'mint',
        history.resolved.map((c) => c.mint),
      )
      .where({ graduated: false, rugged: false });
    const target = history.resolved.find((c) => c.mint === mids[0].mint)!;
    const buyers = (await t.db('wallet_mint_contributions').where({ mint: target.mint })).map((r) => r.wallet as string);
    expect(buyers.length).toBeGreaterThan(0);
    const relabel = async (rugged: boolean) => {
      await t.db('mint_outcomes').where({ mint: target.mint }).update({ rugged });
      for (let i = 0; i < 2; i++) await history.wallets.applyWalletContributions({ mint: target.mint, horizonAt: history.horizonOf(target).toISOString() });
    };
    await relabel(true);
    const after = new Map((await records()).map((r) => [r.wallet, r]));
    for (const r of before) {
      const a = after.get(r.wallet)!;
      const moved = buyers.includes(r.wallet) ? 1 : 0;
      expect([r.wallet, a.total, a.rugged, a.mid, a.graduated]).toEqual([r.wallet, r.total, r.rugged + moved, r.mid - moved, r.graduated]);
    }
    await relabel(false);
    expect((await records()).map(({ updatedAt: _u, ...r }) => r)).toEqual(before.map(({ updatedAt: _u, ...r }) => r));
  });

  it('looks a wallet up by its full address (exactly that wallet) or by its 12-character prefix, never revealing the full address of a prefix', async () => {
    const [top] = await t
      .db('wallet_records')
      .orderBy([{ column: 'total', order: 'desc' }, { column: 'wallet' }])
      .limit(1);
    const byAddress = await http.GET('/api/v1/wallet/{address}', { params: { path: { address: top.wallet } } });
    expect(byAddress.response.status).toBe(200);
    expect(byAddress.data).toMatchObject({ found: true, query: 'address', wallet: top.wallet, count: 1, smart_score_version: 'smart-v1' });
    const w = byAddress.data!.wallets[0];
    expect(w).toMatchObject({
      wallet: top.wallet,
      wallet_prefix: top.wallet.slice(0, 12),
      total: top.total,
      graduations: top.graduated,
      runners: top.ran,
      rugs: top.rugged,
      mids: top.mid,
      fast_snipes: top.fast_snipes,
      early_graduations: top.early_graduated,
      smart_score: top.total >= 8 ? (top.graduated - top.rugged - 1) / (top.total + 5) : null,
      rank: null, // no rank snapshot yet
      first_seen_at: top.first_seen_at.toISOString(),
    });

    const prefix = top.wallet.slice(0, 12);
    for (const r of [
      await http.GET('/api/v1/wallet/{address}', { params: { path: { address: prefix } } }),
      await http.GET('/api/wallet/{short}', { params: { path: { short: prefix } } }),
    ]) {
      expect(r.response.status).toBe(200);
      expect(r.data).toMatchObject({ found: true, query: 'prefix', wallet_prefix: prefix, count: 1 });
      expect(JSON.stringify(r.data)).not.toContain(top.wallet);
      expect(r.data!.wallets[0]).toMatchObject({ total: top.total, rugs: top.rugged });
    }
    // The public lookup needs no key; the keyed one does once the beta window is over.
    expect((await anonymous.GET('/api/wallet/{short}', { params: { path: { short: prefix } } })).response.status).toBe(200);
    expect((await anonymous.GET('/api/v1/wallet/{address}', { params: { path: { address: top.wallet } } })).response.status).toBe(401);
  });

  it('answers a prefix two wallets share with both, and a full address with only its own record', async () => {
    const [w] = await t.db('wallet_records').orderBy('wallet').limit(1);
    const bytes = bs58.decode(w.wallet as string);
    bytes[31] = bytes[31]! ^ 1; // the last byte moves only the last base58 digits
    const twin = bs58.encode(bytes);
    expect(twin.slice(0, 12)).toBe(w.wallet.slice(0, 12));
    expect(twin).not.toBe(w.wallet);

    // A launch the twin buys, resolved and applied like every other.
    const created = now.getTime() - 20 * MIN;
    const m = handBuiltMint({ mint: publicKey(new SeededRandom(99)), creator: publicKey(new SeededRandom(98)), at: created });
    m.buy(1, twin, 0.5);
    m.buy(90, publicKey(new SeededRandom(97)), 1);
    await createLaunchEventStore(t.db).writeBatch([m.create, ...m.trades]);
    const horizonAt = new Date(created + 10 * MIN).toISOString();
    await history.mint.resolveMint({ mint: m.create.mint, horizonAt });
    await history.wallets.applyWalletContributions({ mint: m.create.mint, horizonAt });

    const shared = await anonymous.GET('/api/wallet/{short}', { params: { path: { short: w.wallet.slice(0, 12) } } });
    expect(shared.response.status).toBe(200);
    expect(shared.data!.count).toBe(2);
    // By sample size, then address; neither full address leaves.
    expect(shared.data!.wallets.map((x) => x.total)).toEqual([Math.max(w.total, 1), Math.min(w.total, 1)]);
    expect(JSON.stringify(shared.data)).not.toMatch(new RegExp(`${w.wallet}|${twin}`));
    expect(shared.data!.wallets.find((x) => x.total === 1 && x.fast_snipes === 1)).toBeDefined();

    const exact = await http.GET('/api/v1/wallet/{address}', { params: { path: { address: twin } } });
    expect(exact.response.status).toBe(200);
    expect(exact.data).toMatchObject({ count: 1, wallet: twin, wallets: [{ wallet: twin, total: 1, fast_snipes: 1, fast_snipe_rate: 1 }] });
    const verify = await anonymous.GET('/api/verify/{wallet}', { params: { path: { wallet: twin } } });
    expect(verify.response.status).toBe(200);
    expect(verify.data).toMatchObject({ wallet: twin, total: 1, graduations: 0, fast_snipe_rate: 1, total_invested_sol: 0.5 });

    // The prefix a leaderboard row shows leads to the public verification: both wallets, neither full address.
    const byPrefix = await anonymous.GET('/api/verify/{wallet}', { params: { path: { wallet: twin.slice(0, 12) } } });
    expect(byPrefix.response.status).toBe(200);
    expect(byPrefix.data).toMatchObject({ query: 'prefix', wallet_prefix: twin.slice(0, 12), count: 2 });
    expect(JSON.stringify(byPrefix.data)).not.toMatch(new RegExp(`${w.wallet}|${twin}`));
    expect(JSON.stringify(byPrefix.data)).not.toMatch(/smart_score|rank|percentile/);
    const verified = (byPrefix.data as { wallets: { total: number }[] }).wallets.map((x) => x.total).sort((a, b) => a - b);
    expect(verified).toEqual([Math.min(w.total, 1), Math.max(w.total, 1)]);
  });

  it('says found: false for a wallet it has not indexed, 404 on verify, and 422 for what is not a wallet', async () => {
    const unknown = publicKey(new SeededRandom(12345));
    const r = await http.GET('/api/v1/wallet/{address}', { params: { path: { address: unknown } } });
    expect(r.response.status).toBe(200);
    expect(r.data).toEqual({
      found: false,
      query: 'address',
      wallet: unknown,
      wallet_prefix: unknown.slice(0, 12),
      count: 0,
      smart_score_version: 'smart-v1',
      wallets: [],
    });
    const v = await anonymous.GET('/api/verify/{wallet}', { params: { path: { wallet: unknown } } });
    expect(v.response.status).toBe(404);
    expect((await anonymous.GET('/api/verify/{wallet}', { params: { path: { wallet: unknown.slice(0, 12) } } })).response.status).toBe(404);

    // 44 base58 characters that decode to 33 bytes, a 13-character key, a non-base58 prefix: strings the types allow.
    for (const [what, ask, loc] of [
      ['33 bytes', () => http.GET('/api/v1/wallet/{address}', { params: { path: { address: 'z'.repeat(44) } } }), 'path.address'],
      ['13 characters', () => http.GET('/api/v1/wallet/{address}', { params: { path: { address: unknown.slice(0, 13) } } }), 'path.address'],
      ['not base58', () => http.GET('/api/wallet/{short}', { params: { path: { short: '0OIl00000000' } } }), 'path.short'],
      ['13 characters to verify', () => http.GET('/api/verify/{wallet}', { params: { path: { wallet: unknown.slice(0, 13) } } }), 'path.wallet'],
    ] as const) {
      const bad = await ask();
      expect([what, bad.response.status]).toEqual([what, 422]);
      expect((bad.error as { detail: { loc: (string | number)[] }[] }).detail.map((d) => d.loc.join('.'))).toEqual([loc]);
    }
  });

  it('verifies observed stats only, and reports wallets_indexed in /api/v1/stats', async () => {
    const [w] = await t
      .db('wallet_records')
      .orderBy([{ column: 'total', order: 'desc' }, { column: 'wallet' }])
      .limit(1);
    const v = await anonymous.GET('/api/verify/{wallet}', { params: { path: { wallet: w.wallet } } });
    expect(v.response.status).toBe(200);
    expect(v.data).toMatchObject({ wallet: w.wallet, total: w.total, graduations: w.graduated, runners: w.ran, rugs: w.rugged });
    for (const hidden of ['smart_score', 'rank', 'percentile']) expect(v.data).not.toHaveProperty(hidden);
    // By the prefix the leaderboards show: the same stats, without the full address.
    const short = await anonymous.GET('/api/verify/{wallet}', { params: { path: { wallet: w.wallet.slice(0, 12) } } });
    expect(short.response.status).toBe(200);
    expect(short.data).toMatchObject({ query: 'prefix', count: 1, wallets: [{ wallet_prefix: w.wallet.slice(0, 12), total: w.total, rugs: w.rugged }] });
    expect(JSON.stringify(short.data)).not.toContain(w.wallet);

    const builder = await issueTestKey(t.db, 'builder');
    const stats = await keyedApi(api.url, () => builder).GET('/api/v1/stats');
    expect(stats.response.status).toBe(200);
    const counted = await t.db('wallet_records').count('* as n').first();
    expect(stats.data!.wallets_indexed).toBe(Number(counted?.n));
  });
});
