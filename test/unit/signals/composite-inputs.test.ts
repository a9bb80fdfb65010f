import { maxMultOf, topBuyerShareOf } from '../../../models/signals/composite-evaluator';
import { computeFeatures } from '../../../domain/scoring/mint-features';
import { handBuiltMint } from '../../support/hand-built-mint';

describe('the composite score’s inputs from the live tape', () => {
  it('max_mult is the peak curve price since launch over the launch price, kept after the price falls back', () => {
    const m = handBuiltMint();
    expect(maxMultOf(m.tape())).toBe(1);
    const tokens = m.buy(5, 'A', 20);
    const peak = m.tape();
    const atPeak = peak.price / peak.launchPrice;
    expect(maxMultOf(peak)).toBeCloseTo(atPeak, 12);
    m.sell(10, 'A', tokens);
    const after = m.tape();
    expect(after.price / after.launchPrice).toBeLessThan(atPeak);
    expect(maxMultOf(after)).toBeCloseTo(atPeak, 12);
  });

  it('top buyer share is the k-NN feature of the same name (creator left out, net holdings)', () => {
    const m = handBuiltMint({ creator: 'DEV' });
    m.buy(1, 'DEV', 3);
    const a = m.buy(2, 'A', 2);
    m.buy(3, 'B', 1);
    m.buy(4, 'C', 0.5);
    m.sell(6, 'A', Math.floor(a / 2));
    const tape = m.tape();
    expect(topBuyerShareOf(tape)).toBeCloseTo(computeFeatures(m.create, m.trades, 10).topBuyerShare, 12);
  });
});
