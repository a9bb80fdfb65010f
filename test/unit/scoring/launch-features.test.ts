import type { TradeEvent } from '../../../domain/launch/launch-events';
import { computeLaunchFeatures, LAUNCH_FEATURE_KEYS, launchVector, NO_CONTEXT, type LaunchContext } from '../../../domain/scoring/launch-features';
import { testCreate } from '../../support/launch-corpus';

const T0 = Date.parse('2026-11-01T00:00:00Z');
const SUPPLY = 1e15;
const create = testCreate(T0);

let seq = 0;
/** A trade at `atS` s of age (slot 100 = the creation slot when atS is 0) with hand-set reserves after it. */
const trade = (atS: number, trader: string, isBuy: boolean, o: { tokens?: number; sol?: number; vSol: number; slot?: number }): TradeEvent => ({
  kind: 'trade',
  signature: `sig-${seq++}`,
  ordinal: 0,
  slot: o.slot ?? 100 + Math.ceil(atS * 2.5),
  at: new Date(T0 + atS * 1000),
  source: 'test',
  mint: 'MINT',
  trader,
  isBuy,
  solLamports: (o.sol ?? 0.1) * 1e9,
  tokensRaw: o.tokens ?? 1e12,
  vSolLamports: o.vSol * 1e9,
  vTokensRaw: 1_000e12,
});

const ctx = (o: Partial<LaunchContext> = {}): LaunchContext => ({ ...NO_CONTEXT, ...o });

describe('launch features (knn-v2)', () => {
  it('describe a mint without trades as its launch state, and never carry -0', () => {
    const f = computeLaunchFeatures(create, [], 30, NO_CONTEXT);
    expect(f).toMatchObject({ vSolSol: 30, logSwaps: 0, solPerSwap: 0, reachFrac: 0, logBuyers: 0, sniperCount: 0, freshShare: 0, smartCount: 0 });
    expect(f.creatorGradRate).toBe(0.5);
    for (const k of LAUNCH_FEATURE_KEYS) expect(Object.is(f[k], -0)).toBe(false);
    expect(launchVector(f)).toHaveLength(LAUNCH_FEATURE_KEYS.length);
  });

  it('measure liquidity velocity: swaps to the current vSol, SOL gained per swap, and when it was reached', () => {
    const trades = [trade(5, 'A', true, { vSol: 32 }), trade(10, 'B', true, { vSol: 35 }), trade(15, 'C', true, { vSol: 38 })];
    const f = computeLaunchFeatures(create, trades, 30, NO_CONTEXT);
    expect(f.vSolSol).toBe(38);
    expect(f.logSwaps).toBeCloseTo(Math.log(4));
    expect(f.solPerSwap).toBeCloseTo(8 / 3);
    expect(f.reachFrac).toBeCloseTo(0.5);
  });

  it('compare the last 10 s with the 10 s before', () => {
    // Prior window (10, 20] s before the cutoff at 30: ages 10 ≤ t < 20 → one buy; recent (20, 30]: three buys.
    const trades = [
      trade(12, 'A', true, { vSol: 31 }),
      trade(22, 'B', true, { vSol: 33 }),
      trade(25, 'C', true, { vSol: 35 }),
      trade(29, 'D', true, { vSol: 36 }),
    ];
    const f = computeLaunchFeatures(create, trades, 30, NO_CONTEXT);
    expect(f.accelBuys).toBeCloseTo((3 - 1) / (3 + 1 + 1));
    expect(f.accelSolSol).toBeCloseTo(5 - 1);
  });

  it('count breadth, repeat traders, the first buyers’ supply, the bundle, snipers, the dev and sell pressure', () => {
    const trades = [
      trade(0, 'DEV', true, { tokens: 50e12, sol: 1.5, vSol: 31.5, slot: 100 }),
      trade(0, 'BUNDLE', true, { tokens: 30e12, sol: 1, vSol: 32.5, slot: 100 }),
      trade(2, 'SNIPE', true, { tokens: 20e12, sol: 0.6, vSol: 33.1 }),
      trade(6, 'A', true, { tokens: 10e12, sol: 0.3, vSol: 33.4 }),
      trade(8, 'SNIPE', false, { tokens: 5e12, sol: 0.2, vSol: 33.2 }),
      trade(9, 'DEV', false, { tokens: 10e12, sol: 0.3, vSol: 32.9 }),
    ];
    const f = computeLaunchFeatures(create, trades, 30, NO_CONTEXT);
    expect(f.logBuyers).toBeCloseTo(Math.log(4)); // BUNDLE, SNIPE, A
    expect(f.repeatShare).toBeCloseTo(1 / 3); // SNIPE traded twice
    expect(f.first10Share).toBeCloseTo((30e12 + 15e12 + 10e12) / SUPPLY);
    expect(f.first20Share).toBe(f.first10Share);
    expect(f.bundleShare).toBeCloseTo(30e12 / SUPPLY);
    expect(f.bundleCount).toBe(1);
    expect(f.sniperCount).toBe(2); // BUNDLE at 0 s and SNIPE at 2 s; A at 6 s is not
    expect(f.sniperSoldShare).toBeCloseTo(5e12 / 50e12);
    expect(f.devBuySol).toBeCloseTo(1.5);
    expect(f.devSold).toBe(1);
    expect(f.sellSolShare).toBeCloseTo(0.5 / 3.4);
  });

  it('take freshness, smart money and the creator record from the context it is given', () => {
    const trades = [trade(1, 'A', true, { sol: 2, vSol: 32 }), trade(2, 'B', true, { sol: 1, vSol: 33 }), trade(3, 'C', true, { sol: 0.5, vSol: 33.5 })];
    const f = computeLaunchFeatures(
      create,
      trades,
      30,
      ctx({ isFresh: (w) => w === 'A', isSmart: (w) => w !== 'C', creator: { launches: 3, graduates: 1, rugs: 2 } }),
    );
    expect(f.freshShare).toBeCloseTo(1 / 3);
    expect(f.smartCount).toBe(2);
    expect(f.smartSolIn).toBeCloseTo(3);
    expect(f.creatorLogLaunches).toBeCloseTo(Math.log(4));
    expect(f.creatorGradRate).toBeCloseTo(1.5 / 4);
    expect(f.creatorRugRate).toBeCloseTo(2.5 / 4);
  });

  it('let nothing after the cutoff leak in: trades after it change no feature, whatever their order', () => {
    const before = [
      trade(0, 'BUNDLE', true, { tokens: 30e12, vSol: 31, slot: 100 }),
      trade(2, 'SNIPE', true, { tokens: 20e12, vSol: 32 }),
      trade(20, 'A', true, { vSol: 34 }),
      trade(30, 'B', true, { vSol: 35 }),
    ];
    const after = [
      trade(30.5, 'SNIPE', false, { tokens: 20e12, vSol: 33 }),
      trade(31, 'DEV', true, { sol: 5, vSol: 40 }),
      trade(31, 'DEV', false, { vSol: 39 }),
      trade(45, 'NEW', true, { vSol: 50 }),
      trade(59, 'BUNDLE', false, { tokens: 30e12, vSol: 45 }),
    ];
    const c = ctx({ isFresh: (w) => w === 'NEW' || w === 'A', isSmart: (w) => w === 'NEW' });
    const cut = computeLaunchFeatures(create, before, 30, c);
    expect(computeLaunchFeatures(create, [...after, ...before].reverse(), 30, c)).toEqual(cut);
    // The same trades do count once the cutoff passes them.
    const later = computeLaunchFeatures(create, [...before, ...after], 60, c);
    expect(later).toMatchObject({ vSolSol: 45, devSold: 1, smartCount: 1, sniperSoldShare: 1 });
    expect(later.devBuySol).toBeCloseTo(5);
  });

  it('refuse a trade of another mint rather than score it', () => {
    expect(() => computeLaunchFeatures(create, [{ ...trade(1, 'A', true, { vSol: 31 }), mint: 'OTHER' }], 30, NO_CONTEXT)).toThrow(RangeError);
  });
});
