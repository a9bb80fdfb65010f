import { CURVE } from '../../../domain/launch/launch-events';
import { curveFeesOn, DEFAULT_CURVE_FEES, feeOn } from '../../../domain/paper/curve-fees';
import { buyOnCurve, FINAL_VTOKENS_RAW, sellOnCurve, type CurveBuy, type CurveSell } from '../../../domain/paper/curve-fill';

const INITIAL = { vSolLamports: CURVE.initialVSolLamports, vTokensRaw: CURVE.initialVTokensRaw };
const FEES = DEFAULT_CURVE_FEES; // 95 + 30 bps
const NO_FEES = { protocolBps: 0, creatorBps: 0 };

function okBuy(r: ReturnType<typeof buyOnCurve>): CurveBuy {
  if (!r.ok) throw new Error(`refused: ${r.reason}`);
  return r;
}
function okSell(r: ReturnType<typeof sellOnCurve>): CurveSell {
  if (!r.ok) throw new Error(`refused: ${r.reason}`);
  return r;
}

describe('curve fees', () => {
  it('rounds each part up, as the program does', () => {
    expect(feeOn(10_193_567n, 95)).toBe(96_839n); // 96,838.89 → 96,839
    expect(feeOn(10_193_567n, 30)).toBe(30_581n); // 30,580.70 → 30,581
    expect(feeOn(10_000n, 95)).toBe(95n); // exact: no extra lamport
    expect(feeOn(0n, 95)).toBe(0n);
    expect(curveFeesOn(98_765_432n, FEES)).toEqual({ protocol: 938_272n, creator: 296_297n, total: 1_234_569n });
  });
});

describe('buying on the curve', () => {
  it('takes the fee on the SOL going in and fills the rest at constant product (hand-computed, fresh curve)', () => {
    const b = okBuy(buyOnCurve(INITIAL, 100_000_000, FEES));
    // floor(1e8 × 10,000 / 10,125) = 98,765,432, whose fees (938,272 + 296,297) overshoot the budget by one
    // lamport; 98,765,431 has the same fees and spends exactly 0.1 SOL.
    expect(b.solToCurveLamports).toBe(98_765_431);
    expect(b.protocolFeeLamports).toBe(938_272);
    expect(b.creatorFeeLamports).toBe(296_297);
    expect(b.feeLamports).toBe(1_234_569);
    expect(b.solSpentLamports).toBe(100_000_000);
    expect(b.refundLamports).toBe(0);
    // floor(1.073e15 × 98,765,431 / (30e9 + 98,765,431))
    expect(b.tokensRaw).toBe(3_520_918_746_848);
    expect(b.after).toEqual({ vSolLamports: 30_098_765_431, vTokensRaw: 1_069_479_081_253_152 });
    expect(b.capped).toBe(false);
    expect(b.completesCurve).toBe(false);
    expect(b.spotPriceSol).toBeCloseTo(2.7958993476234855e-8, 20);
    expect(b.executionPriceSol).toBeCloseTo(2.805103954427147e-8, 20);
    expect(b.effectivePriceSol).toBeCloseTo(2.840167785454353e-8, 20);
    // On a constant-product curve the impact of a buy is its SOL in ÷ vSol: 98,765,431 / 30e9.
    expect(b.slippage).toBeCloseTo(98_765_431 / 30e9, 9);
    expect(b.before).toEqual(INITIAL);
  });

  it('keeps k from falling', () => {
    const b = okBuy(buyOnCurve(INITIAL, 2_500_000_000, FEES));
    expect(BigInt(b.after.vSolLamports) * BigInt(b.after.vTokensRaw)).toBeGreaterThanOrEqual(BigInt(INITIAL.vSolLamports) * BigInt(INITIAL.vTokensRaw));
  });

  it('never spends more than the budget, whatever rounding does', () => {
    for (let budget = 1_000; budget < 1_000_000_000; budget = Math.floor(budget * 1.37) + 11) {
      const r = buyOnCurve(INITIAL, budget, FEES);
      if (!r.ok) continue;
      expect(r.solSpentLamports).toBeLessThanOrEqual(budget);
      expect(r.solSpentLamports + r.refundLamports).toBe(budget);
      // No lamport left that could have gone into the curve: one more would overshoot.
      const more = BigInt(r.solToCurveLamports + 1);
      expect(more + curveFeesOn(more, FEES).total).toBeGreaterThan(BigInt(budget));
    }
  });

  it('caps a buy larger than the remaining curve at its completion and refunds the rest', () => {
    // 50,000 real tokens left at vSol 114.979 SOL: 0.1 SOL would buy about 240,000.
    const near = { vSolLamports: 114_979_000_000, vTokensRaw: FINAL_VTOKENS_RAW + 50_000_000_000 };
    const b = okBuy(buyOnCurve(near, 100_000_000, FEES));
    expect(b.capped).toBe(true);
    expect(b.completesCurve).toBe(true);
    expect(b.tokensRaw).toBe(50_000_000_000);
    // ceil(114.979e9 × 5e10 / 2.799e14) = 20,539,300 (the program's floor + 1 gives the same here)
    expect(b.solToCurveLamports).toBe(20_539_300);
    expect(b.protocolFeeLamports).toBe(195_124);
    expect(b.creatorFeeLamports).toBe(61_618);
    expect(b.solSpentLamports).toBe(20_796_042);
    expect(b.refundLamports).toBe(79_203_958);
    expect(b.after).toEqual({ vSolLamports: 114_999_539_300, vTokensRaw: FINAL_VTOKENS_RAW });
  });

  it('refuses a completed curve and a budget that buys nothing', () => {
    expect(buyOnCurve({ vSolLamports: 115_005_000_000, vTokensRaw: FINAL_VTOKENS_RAW }, 100_000_000, FEES)).toEqual({ ok: false, reason: 'curve_complete' });
    expect(buyOnCurve(INITIAL, 1, FEES)).toEqual({ ok: false, reason: 'amount_too_small' });
    expect(buyOnCurve(INITIAL, 0, NO_FEES)).toEqual({ ok: false, reason: 'amount_too_small' });
  });

  it('refuses nonsense input loudly', () => {
    expect(() => buyOnCurve(INITIAL, 1.5, FEES)).toThrow(RangeError);
    expect(() => buyOnCurve(INITIAL, -1, FEES)).toThrow(RangeError);
    expect(() => buyOnCurve({ vSolLamports: 0, vTokensRaw: 1 }, 1, FEES)).toThrow(RangeError);
    expect(() => buyOnCurve(INITIAL, 1, { protocolBps: 9_000, creatorBps: 1_000 })).toThrow(RangeError);
    expect(() => buyOnCurve(INITIAL, 1, { protocolBps: 0.5, creatorBps: 0 })).toThrow(RangeError);
  });
});

describe('selling on the curve', () => {
  it('pays constant product out and takes the fee from it (hand-computed round trip)', () => {
    const b = okBuy(buyOnCurve(INITIAL, 100_000_000, FEES));
    const s = okSell(sellOnCurve(b.after, b.tokensRaw, FEES));
    // floor(3,520,918,746,848 × 30,098,765,431 / 1,073e15): one lamport under what went in (rounding).
    expect(s.grossLamports).toBe(98_765_430);
    expect(s.protocolFeeLamports).toBe(938_272);
    expect(s.creatorFeeLamports).toBe(296_297);
    expect(s.proceedsLamports).toBe(97_530_861);
    // The rounding lamport stays in the curve.
    expect(s.after).toEqual({ vSolLamports: 30_000_000_001, vTokensRaw: CURVE.initialVTokensRaw });
    // A constant-product sale of N tokens into vTokens loses N / (vTokens + N) of its spot value.
    expect(s.slippage).toBeCloseTo(3_520_918_746_848 / 1_073_000_000_000_000, 7);
    expect(s.effectivePriceSol).toBeCloseTo(97_530_861 / 1e9 / (3_520_918_746_848 / 1e6), 20);
  });

  it('without fees, proceeds are the gross', () => {
    const s = okSell(sellOnCurve({ vSolLamports: 60_000_000_000, vTokensRaw: 500_000_000_000_000 }, 1_000_000_000_000, NO_FEES));
    expect(s.grossLamports).toBe(119_760_479); // floor(6e10 × 1e12 / 5.01e14)
    expect(s.proceedsLamports).toBe(119_760_479);
    expect(s.feeLamports).toBe(0);
  });

  it('refuses a completed curve and a sale of nothing', () => {
    expect(sellOnCurve({ vSolLamports: 115_005_000_000, vTokensRaw: FINAL_VTOKENS_RAW }, 1_000, FEES)).toEqual({ ok: false, reason: 'curve_complete' });
    expect(sellOnCurve(INITIAL, 0, FEES)).toEqual({ ok: false, reason: 'amount_too_small' });
  });
});
