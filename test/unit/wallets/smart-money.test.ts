import bs58 from 'bs58';
import { enrichMint } from '../../../domain/live/enriched-mint';
import { defineSmartScoreVersion } from '../../../domain/wallets/smart-score';
import { smartScoresByPrefix } from '../../../domain/live/mint-smart-money';
import { smartMoneyActive, smartMoneyOnMint } from '../../../domain/wallets/smart-money';
import { redactWallet } from '../../../domain/wallets/wallet-address';
import { handBuiltMint, T0 } from '../../support/hand-built-mint';

/** Valid addresses; `twin` shares the first 12 characters of `key(…, 1)`. */
const key = (fill: number, last = 1) => bs58.encode(Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? last : fill)));
const SMART = key(11);
const EDGE = key(12); // exactly 0.30
const YOUNG = key(13); // brilliant but 7 launches
const DULL = key(14);
const NEW = key(15); // not indexed
const TWIN = key(11, 2); // shares SMART's prefix, not smart
const w = (total: number, graduated: number, rugged: number) => ({ total, graduated, rugged });
const records = new Map([
  [SMART, w(8, 5, 0)],
  [EDGE, w(15, 7, 0)],
  [YOUNG, w(7, 7, 0)],
  [DULL, w(40, 2, 10)],
  [TWIN, w(9, 0, 9)],
]);

describe('smart money on a mint', () => {
  it('counts smart wallets among the top buyers and gives each its published score (null when unknown or under 8)', () => {
    const top = [SMART, EDGE, YOUNG, DULL, NEW].map((wallet, i) => ({ wallet, solIn: 5 - i }));
    const m = smartMoneyOnMint(top, records);
    expect(m.smartMoneyIn).toBe(2);
    expect(m.scoreVersion).toBe('smart-v1');
    expect(m.buyers).toEqual([
      { walletPrefix: redactWallet(SMART), solIn: 5, smartScore: 4 / 13, total: 8, smart: true },
      { walletPrefix: redactWallet(EDGE), solIn: 4, smartScore: 0.3, total: 15, smart: true },
      { walletPrefix: redactWallet(YOUNG), solIn: 3, smartScore: null, total: 7, smart: false },
      { walletPrefix: redactWallet(DULL), solIn: 2, smartScore: -9 / 45, total: 40, smart: false },
      { walletPrefix: redactWallet(NEW), solIn: 1, smartScore: null, total: null, smart: false },
    ]);
    expect(JSON.stringify(m)).not.toContain(SMART);
  });

  it('is zero with no top buyers or no known wallet', () => {
    expect(smartMoneyOnMint([], records).smartMoneyIn).toBe(0);
    expect(smartMoneyOnMint([{ wallet: NEW, solIn: 1 }], new Map()).smartMoneyIn).toBe(0);
  });

  it('looks buyers up by full address: a prefix twin never lends its record', () => {
    const m = smartMoneyOnMint([{ wallet: TWIN, solIn: 1 }], records);
    expect(redactWallet(TWIN)).toBe(redactWallet(SMART));
    expect(m).toMatchObject({ smartMoneyIn: 0, buyers: [{ smartScore: -10 / 14, smart: false }] });
  });

  it('follows the score version and criteria it is given', () => {
    const strict = defineSmartScoreVersion('smart-v2', 0.003, 0.3, 10);
    const top = [SMART, EDGE].map((wallet) => ({ wallet, solIn: 1 }));
    expect(smartMoneyOnMint(top, records, strict).smartMoneyIn).toBe(0);
    expect(smartMoneyOnMint(top, records, undefined, { minTotal: 10, minScore: 0.3 }).buyers.map((b) => b.smart)).toEqual([false, true]);
    expect(() => smartMoneyOnMint([...top, top[0]!], records)).toThrow(/listed twice/);
  });

  it('hands enrichMint scores by prefix, leaving out a prefix two top buyers share', () => {
    const m = smartMoneyOnMint(
      [SMART, TWIN, EDGE, YOUNG].map((wallet) => ({ wallet, solIn: 1 })),
      records,
    );
    expect([...smartScoresByPrefix(m)]).toEqual([[redactWallet(EDGE), 0.3]]);
  });

  it('fills top_buyers[].smart_score of the enriched mint', () => {
    const mint = handBuiltMint();
    mint.buy(1, SMART, 3);
    mint.buy(2, DULL, 2);
    mint.buy(3, NEW, 1);
    const tape = mint.tape();
    const top = tape.holderShares().map((h) => ({ wallet: h.wallet, solIn: h.solIn }));
    const scores = smartScoresByPrefix(smartMoneyOnMint(top, records));
    const e = enrichMint({
      tape,
      now: new Date(T0 + 10_000),
      prediction: null,
      creator: { nLaunches: 0, rate5x: null, runnerCreator: null },
      creatorLaunches: 1,
      solUsd: null,
      freshness: new Map(),
      graduatedAt: null,
      survivalLive: false,
      smartScores: scores,
    });
    expect(e.top_buyers.map((b) => [b.wallet_prefix, b.smart_score])).toEqual([
      [redactWallet(SMART), 4 / 13],
      [redactWallet(DULL), -0.2],
      [redactWallet(NEW), null],
    ]);
  });
});

describe('smart money active', () => {
  const mints = [
    { mint: 'M1', gradProb: 0.2, smartMoneyIn: 1 },
    { mint: 'M2', gradProb: null, smartMoneyIn: 3 },
    { mint: 'M3', gradProb: 0.1, smartMoneyIn: 3 },
    { mint: 'M4', gradProb: 0.4, smartMoneyIn: 0 },
    { mint: 'M5', gradProb: 0.1, smartMoneyIn: 3 },
    { mint: 'M6', gradProb: 0.5, smartMoneyIn: 2 },
  ];

  it('keeps mints with at least min_smart smart wallets, by count, then grad_prob with nulls last, then mint', () => {
    expect(smartMoneyActive(mints, { minSmart: 1, limit: 50 }).map((m) => m.mint)).toEqual(['M3', 'M5', 'M2', 'M6', 'M1']);
    expect(smartMoneyActive(mints, { minSmart: 3, limit: 50 }).map((m) => m.mint)).toEqual(['M3', 'M5', 'M2']);
    expect(smartMoneyActive(mints, { minSmart: 1, limit: 2 }).map((m) => m.mint)).toEqual(['M3', 'M5']);
    expect(smartMoneyActive(mints, { minSmart: 4, limit: 50 })).toEqual([]);
    expect(() => smartMoneyActive(mints, { minSmart: 0, limit: 50 })).toThrow(/min_smart/);
  });
});
