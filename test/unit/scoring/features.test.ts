import { priceSol, type TradeEvent } from '../../../domain/launch/launch-events';
import { FEATURE_VECTOR_KEYS, computeFeatures, toVector } from '../../../domain/scoring/mint-features';
import { testCreate } from '../../support/launch-corpus';

const T0 = Date.parse('2026-11-01T00:00:00Z');
const create = testCreate(T0);

let seq = 0;
/** A trade at `atS` seconds of age with hand-set reserves after it (features read them, they do not re-derive them). */
const trade = (atS: number, trader: string, isBuy: boolean, tokens: number, vSolSol: number, vTokensM = 1_000): TradeEvent => ({
  kind: 'trade',
  signature: `sig-${seq++}`,
  ordinal: 0,
  slot: 100 + Math.floor(atS * 2.5),
  at: new Date(T0 + atS * 1000),
  source: 'test',
  mint: 'MINT',
  trader,
  isBuy,
  solLamports: 1e8,
  tokensRaw: tokens,
  vSolLamports: vSolSol * 1e9,
  vTokensRaw: vTokensM * 1e12,
});

describe('mint features', () => {
  it('describe a mint with no trades as its launch state', () => {
    const f = computeFeatures(create, [], 30);
    expect(f).toEqual({
      vSolSol: 30,
      vSolGrowthSol: 0,
      logTrades: 0,
      logUniqueBuyers: 0,
      topBuyerShare: 0,
      currentMult: 1,
      buyCount: 0,
      sellCount: 0,
      uniqueBuyers: 0,
      creatorSold: false,
    });
  });

  it('count only trades up to the age cutoff (inclusive), whatever their order', () => {
    const trades = [trade(31, 'C', true, 10, 40), trade(10, 'A', true, 10, 32), trade(30, 'B', true, 10, 35, 900)];
    const f = computeFeatures(create, trades, 30);
    expect(f.buyCount).toBe(2);
    expect(f.vSolSol).toBe(35);
    expect(f.vSolGrowthSol).toBe(5);
    expect(f.logTrades).toBeCloseTo(Math.log(3));
    expect(f.currentMult).toBeCloseTo(priceSol(35e9, 900e12) / priceSol(30e9, 1_073e12), 12);
    expect(computeFeatures(create, [...trades].reverse(), 30)).toEqual(f);
    expect(computeFeatures(create, trades, 60).buyCount).toBe(3);
  });

  it('leave the creator out of buyers and top-buyer share, and flag a creator sale', () => {
    const trades = [
      trade(0, 'DEV', true, 500, 31),
      trade(2, 'A', true, 100, 32),
      trade(3, 'B', true, 300, 33),
      trade(4, 'B', false, 200, 32.5),
      trade(5, 'DEV', false, 500, 31),
    ];
    const f = computeFeatures(create, trades, 30);
    expect(f.uniqueBuyers).toBe(2);
    expect(f.logUniqueBuyers).toBeCloseTo(Math.log(3));
    // Net holdings: A 100, B 300 − 200 = 100.
    expect(f.topBuyerShare).toBeCloseTo(0.5);
    expect(f).toMatchObject({ buyCount: 3, sellCount: 2, creatorSold: true });
    expect(computeFeatures(create, trades.slice(0, 3), 30)).toMatchObject({ topBuyerShare: 0.75, creatorSold: false });
  });

  it('refuse a trade of another mint rather than score it', () => {
    expect(() => computeFeatures(create, [{ ...trade(1, 'A', true, 1, 31), mint: 'OTHER' }], 30)).toThrow(RangeError);
  });

  it('publish the six k-NN features in a fixed order', () => {
    const f = computeFeatures(create, [trade(1, 'A', true, 100, 31)], 30);
    expect(FEATURE_VECTOR_KEYS).toEqual(['vSolSol', 'vSolGrowthSol', 'logTrades', 'logUniqueBuyers', 'topBuyerShare', 'currentMult']);
    expect(toVector(f)).toEqual([f.vSolSol, f.vSolGrowthSol, f.logTrades, f.logUniqueBuyers, f.topBuyerShare, f.currentMult]);
  });
});
