import { baseRateCells, breakevenGradProb, GRADUATION_VSOL_SOL, INITIAL_VSOL_SOL, vSolOfPrice } from '../../../domain/accuracy/base-rates';
import { VSOL_BANDS } from '../../../domain/accuracy/vsol-lift';
import { CURVE, priceSol } from '../../../domain/launch/launch-events';
import { RUNNER_GRID_AGES_S } from '../../../domain/scoring/runner-grid';

describe('base rates by band', () => {
  it('reads virtual SOL back from a curve price (constant product)', () => {
    expect(vSolOfPrice(priceSol(CURVE.initialVSolLamports, CURVE.initialVTokensRaw))).toBeCloseTo(30, 9);
    // 20 SOL bought at the start: vTokens shrinks so that vSol × vTokens stays constant.
    const vSol = 50e9;
    const vTokens = (CURVE.initialVSolLamports * CURVE.initialVTokensRaw) / vSol;
    expect(vSolOfPrice(priceSol(vSol, vTokens))).toBeCloseTo(50, 6);
  });

  it('gives the buy-and-hold breakeven (v/115)², from the curve start at the lowest', () => {
    expect(breakevenGradProb(GRADUATION_VSOL_SOL)).toBeCloseTo(1, 12);
    expect(breakevenGradProb(57.5)).toBeCloseTo(0.25, 12);
    expect(breakevenGradProb(0)).toBeCloseTo((INITIAL_VSOL_SOL / GRADUATION_VSOL_SOL) ** 2, 12);
  });

  it('lists every (age, band) cell, with shares of the counted launches and null where none were', () => {
    const cells = baseRateCells([{ ageS: 60, band: 2, launches: 40, graduated: 4, reached: [10, 2, 1], rugLabelled: 20, rugged: 5 }]);
    expect(cells).toHaveLength(RUNNER_GRID_AGES_S.length * VSOL_BANDS.length);
    const c = cells.find((x) => x.age_s === 60 && x.v_sol_lo === VSOL_BANDS[2]!.lo)!;
    expect(c).toMatchObject({ launches: 40, graduated: 4, graduated_share: 0.1, rug_labelled: 20, rugged: 5, rugged_share: 0.25 });
    expect(c.reached).toEqual([
      { multiple: 2, launches: 10, share: 0.25 },
      { multiple: 5, launches: 2, share: 0.05 },
      { multiple: 10, launches: 1, share: 0.025 },
    ]);
    expect(c.breakeven_grad_prob.at_lo).toBeLessThan(c.breakeven_grad_prob.at_hi);
    const empty = cells.find((x) => x.age_s === 10)!;
    expect(empty).toMatchObject({ launches: 0, graduated_share: null, rugged_share: null });
    // The lowest band starts at the curve's start, the highest ends at graduation.
    expect(cells[0]!.v_sol_lo).toBe(30);
    expect(cells[VSOL_BANDS.length - 1]!.v_sol_hi).toBe(115);
  });
});
