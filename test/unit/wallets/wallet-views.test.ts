import bs58 from 'bs58';
import { rankWallets } from '../../../domain/wallets/leaderboards';
import { smartMoneyOnMint } from '../../../domain/wallets/smart-money';
import { parseWalletKey, redactWallet, type WalletKey } from '../../../domain/wallets/wallet-address';
import { emptyRecord, type WalletCounts, type WalletRecord } from '../../../domain/wallets/wallet-record';
import { leaderboardView, smartMoneyFields, walletLookupView, walletRecordView, walletVerificationView } from '../../../domain/wallets/wallet-views';
import { expectConforms } from '../../support/contract';

const key = (fill: number, last = 1) => bs58.encode(Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? last : fill)));
const A = key(21);
const A_TWIN = key(21, 2);
const B = key(22);
const first = new Date('2026-11-01T00:00:00Z');
const last = new Date('2026-11-05T12:00:00Z');
const now = new Date('2026-11-06T00:00:00Z');
const rec = (wallet: string, c: Partial<WalletCounts>): WalletRecord => ({ ...emptyRecord(wallet), ...c, firstSeenAt: first, lastSeenAt: last });

const a = rec(A, {
  total: 10,
  graduated: 6,
  ran: 2,
  mid: 3,
  rugged: 1,
  fastSnipes: 4,
  snipedRugged: 1,
  early: 7,
  earlyGraduated: 5,
  buys: 16,
  solInvestedLamports: 12.5e9,
});
const twin = rec(A_TWIN, { total: 3, graduated: 0, mid: 3, buys: 3, solInvestedLamports: 0.3e9 });
const b = rec(B, { total: 9, graduated: 5, rugged: 1, mid: 3, fastSnipes: 9, snipedRugged: 1, earlyGraduated: 5, buys: 9, solInvestedLamports: 9e9 });

/** One record as the lookup operations carry it (openapi WalletLookup.wallets[]). */
const inLookup = (record: { wallet_prefix: string }) => ({
  found: true,
  query: 'prefix',
  wallet_prefix: record.wallet_prefix,
  count: 1,
  smart_score_version: 'smart-v1',
  wallets: [record],
});

describe('a wallet record body', () => {
  const body = walletRecordView(a, {
    revealAddress: true,
    rank: { rank: 3, percentile: 99.5 },
    creator: { nLaunches: 5, nResolved: 4, n5x: 1 },
    updatedAt: now,
  });

  it('holds the exact record, the published score and its version, and conforms to openapi WalletRecord', () => {
    expect(body).toEqual({
      wallet: A,
      wallet_prefix: redactWallet(A),
      total: 10,
      graduations: 6,
      runners: 2,
      mids: 3,
      rugs: 1,
      graduation_rate: 0.6,
      runner_rate: 0.2,
      rug_rate: 0.1,
      smart_score: 4 / 15,
      smart_score_version: 'smart-v1',
      rank: 3,
      percentile: 99.5,
      sniper_rug_rate: 0.25,
      fast_snipes: 4,
      fast_snipe_rate: 0.4,
      early_graduations: 5,
      total_invested_sol: 12.5,
      avg_buy_sol: 0.78125,
      launches: 5,
      launches_rate_5x: 0.25,
      first_seen_at: '2026-11-01T00:00:00.000Z',
      last_seen_at: '2026-11-05T12:00:00.000Z',
      updated_at: '2026-11-06T00:00:00.000Z',
    });
    expectConforms('GET', '/api/v1/wallet/{address}', 200, inLookup(body));
  });

  it('shows no score, rank or percentile below the minimum sample, and no creator rate without launches', () => {
    const small = walletRecordView(twin, { revealAddress: true, rank: { rank: 9, percentile: 1 }, creator: null, updatedAt: now });
    expect(small).toMatchObject({
      smart_score: null,
      rank: null,
      percentile: null,
      launches: 0,
      launches_rate_5x: null,
      sniper_rug_rate: null,
      fast_snipe_rate: 0,
    });
    expectConforms('GET', '/api/v1/wallet/{address}', 200, inLookup(small));
  });

  it('refuses a record that was never applied (no seen times)', () => {
    expect(() => walletRecordView(emptyRecord(A), { revealAddress: true, rank: null, creator: null, updatedAt: now })).toThrow(/first_seen_at/);
  });
});

describe('GET /api/wallet/{short} and /api/v1/wallet/{address} bodies', () => {
  const key = (s: string) => parseWalletKey(s) as WalletKey;
  const match = (record: WalletRecord) => ({ record, rank: null, creator: null, updatedAt: now });

  it('answer a shared prefix with both records, by prefix only, never a full address', () => {
    const body = walletLookupView(key(redactWallet(A)), [match(a), match(twin)]);
    expect(body).toMatchObject({ found: true, query: 'prefix', wallet_prefix: redactWallet(A), count: 2, smart_score_version: 'smart-v1' });
    expect(body).not.toHaveProperty('wallet');
    expect(body.wallets.map((w) => [w.wallet_prefix, w.total])).toEqual([
      [redactWallet(A), 10],
      [redactWallet(A), 3],
    ]);
    expect(body.wallets.every((w) => !('wallet' in w))).toBe(true);
    const text = JSON.stringify(body);
    expect(text).not.toContain(A);
    expect(text).not.toContain(A_TWIN);
    expectConforms('GET', '/api/wallet/{short}', 200, body);
    expectConforms('GET', '/api/v1/wallet/{address}', 200, body);
  });

  it('echo a full address the caller sent, with that wallet only', () => {
    const body = walletLookupView(key(A), [match(a)]);
    expect(body).toMatchObject({ found: true, query: 'address', wallet: A, count: 1 });
    expect(body.wallets[0]).toMatchObject({ wallet: A, total: 10 });
    expectConforms('GET', '/api/v1/wallet/{address}', 200, body);
    expect(() => walletLookupView(key(A), [match(twin)])).toThrow(/does not match/);
  });

  it('say found: false for a well-formed key no indexed wallet matches', () => {
    const body = walletLookupView(key(B), []);
    expect(body).toEqual({ found: false, query: 'address', wallet: B, wallet_prefix: redactWallet(B), count: 0, smart_score_version: 'smart-v1', wallets: [] });
    expectConforms('GET', '/api/v1/wallet/{address}', 200, body);
    expectConforms('GET', '/api/wallet/{short}', 200, walletLookupView(key(redactWallet(B)), []));
  });

  it('refuse a record that does not carry the prefix', () => {
    expect(() => walletLookupView(key(redactWallet(A)), [match(b)])).toThrow(/does not match/);
  });
});

describe('GET /api/verify/{wallet} body', () => {
  it('holds observed stats only, conforming to the closed WalletVerification schema', () => {
    const body = walletVerificationView(a, now);
    expect(body).toEqual({
      wallet: A,
      wallet_prefix: redactWallet(A),
      total: 10,
      graduations: 6,
      runners: 2,
      rugs: 1,
      fast_snipe_rate: 0.4,
      total_invested_sol: 12.5,
      first_seen_at: '2026-11-01T00:00:00.000Z',
      last_seen_at: '2026-11-05T12:00:00.000Z',
      verified_at: '2026-11-06T00:00:00.000Z',
    });
    for (const hidden of ['smart_score', 'rank', 'percentile']) expect(body).not.toHaveProperty(hidden);
    expectConforms('GET', '/api/verify/{wallet}', 200, body);
  });
});

describe('GET /api/v1/wallets/leaderboard body', () => {
  it('lists ranked wallets by prefix with the ranked score and its version', () => {
    const ranked = rankWallets([a, twin, b], 'service');
    const body = leaderboardView('service', ranked, { generatedAt: now });
    expect(body).toMatchObject({ kind: 'service', score_version: 'service-v1', min_total: 8, count: 2, generated_at: '2026-11-06T00:00:00.000Z' });
    expect(body.wallets.map((w) => [w.rank, w.wallet_prefix, w.score, w.early_graduations])).toEqual([
      [1, redactWallet(B), 5.05 / 14, 5],
      [2, redactWallet(A), 5.05 / 15, 5],
    ]);
    expect(body.wallets[0]).toEqual({
      rank: 1,
      wallet_prefix: redactWallet(B),
      score: 5.05 / 14,
      smart_score: 3 / 14,
      total: 9,
      graduations: 5,
      runners: 0,
      rugs: 1,
      graduation_rate: 0.555556,
      rug_rate: 0.111111,
      sniper_rug_rate: 0.111111,
      fast_snipe_rate: 1,
      early_graduations: 5,
      last_seen_at: '2026-11-05T12:00:00.000Z',
    });
    const text = JSON.stringify(body);
    for (const full of [A, B]) expect(text).not.toContain(full);
  });
});

describe('smart money fields of a mint', () => {
  it('count the smart wallets and list them by prefix with score, sample and SOL in', () => {
    const m = smartMoneyOnMint(
      [
        { wallet: A, solIn: 2.5 },
        { wallet: twin.wallet, solIn: 1 },
        { wallet: B, solIn: 0.1234567 },
      ],
      new Map([a, twin, b].map((r) => [r.wallet, r])),
      undefined,
      { minTotal: 8, minScore: 0.2 },
    );
    expect(smartMoneyFields(m)).toEqual({
      smart_money_in: 2,
      smart_wallet_count: 2,
      smart_wallets: [
        { wallet_prefix: redactWallet(A), smart_score: 4 / 15, total: 10, sol_in: 2.5 },
        { wallet_prefix: redactWallet(B), smart_score: 3 / 14, total: 9, sol_in: 0.123457 },
      ],
    });
  });
});
