import { chooseByOneSe, clearsOneSe, pairedDifference } from '../../../domain/scoring/one-se-rule';

describe('the one-standard-error rule on paired held-out losses', () => {
  it('gives the mean difference and the textbook s/√n with equal weights', () => {
    const a = [1, 2, 3, 4];
    const b = [1.5, 2, 3.5, 4]; // differences 0.5, 0, 0.5, 0: mean 0.25, s² = 1/12
    const { mean, se } = pairedDifference(a, b);
    expect(mean).toBeCloseTo(0.25, 12);
    expect(se).toBeCloseTo(Math.sqrt(1 / 12 / 4), 12);
  });

  it('keeps the incumbent when the challenger is lower but within the noise', () => {
    // Differences alternate −0.3 / +0.2: mean −0.05, SE ≈ 0.079.
    const incumbent = Array.from({ length: 10 }, () => 1);
    const challenger = incumbent.map((x, i) => x + (i % 2 === 0 ? -0.3 : 0.2));
    const { mean, se } = pairedDifference(incumbent, challenger);
    expect(mean).toBeLessThan(0);
    expect(-mean).toBeLessThan(se);
    expect(clearsOneSe(incumbent, challenger)).toBe(false);
    expect(chooseByOneSe([incumbent, challenger])).toBe(0);
  });

  it('replaces the incumbent with a challenger that is clearly better', () => {
    const incumbent = Array.from({ length: 10 }, (_, i) => 1 + 0.1 * i);
    const challenger = incumbent.map((x, i) => x - 0.2 + (i % 2 === 0 ? 0.05 : -0.05));
    expect(clearsOneSe(incumbent, challenger)).toBe(true);
    expect(chooseByOneSe([incumbent, challenger])).toBe(1);
  });

  it('pairs the rows: a shift shared by every row does not hide a small consistent gain', () => {
    // Rows differ wildly in difficulty (the unpaired SE would swamp 0.01), the challenger is 0.01 better on each.
    const incumbent = Array.from({ length: 50 }, (_, i) => (i % 5) * 3);
    const challenger = incumbent.map((x, i) => x - 0.01 + (i % 2 === 0 ? 0.001 : -0.001));
    expect(clearsOneSe(incumbent, challenger)).toBe(true);
  });

  it('respects the weights: the same rows clear the bar or not by how much each stands for', () => {
    // Rows 0–1 favour the challenger by 1, rows 2–9 cost it 0.1 each.
    const incumbent = Array.from({ length: 10 }, () => 1);
    const challenger = incumbent.map((x, i) => (i < 2 ? x - 1 : x + 0.1));
    expect(pairedDifference(incumbent, challenger).mean).toBeCloseTo((-2 + 0.8) / 10, 12);
    expect(clearsOneSe(incumbent, challenger)).toBe(false);
    // Rows 0–1 standing for 20 rows each (a stratified sample's rare positives): mean (−40 + 0.8) / 48.
    const weights = incumbent.map((_, i) => (i < 2 ? 20 : 1));
    expect(pairedDifference(incumbent, challenger, weights).mean).toBeCloseTo((-40 + 0.8) / 48, 12);
    // ...and the other way round: the two rows worth little, the challenger's losses on the rest dominate.
    const light = incumbent.map((_, i) => (i < 2 ? 0.01 : 1));
    expect(pairedDifference(incumbent, challenger, light).mean).toBeGreaterThan(0);
    expect(clearsOneSe(incumbent, challenger, light)).toBe(false);
  });

  it('walks the order: each challenger is measured against whoever holds the place then', () => {
    const n = 40;
    const wiggle = (i: number) => (i % 2 === 0 ? 0.02 : -0.02);
    const simplest = Array.from({ length: n }, () => 1);
    const noise = simplest.map((x, i) => x - 0.005 + wiggle(i) * 3); // lower, within one SE
    const better = simplest.map((x, i) => x - 0.2 + wiggle(i)); // clearly lower
    const barelyBetter = better.map((x, i) => x - 0.002 + wiggle(i) * 3); // lower than `better`, within its SE
    expect(chooseByOneSe([simplest, noise, better, barelyBetter])).toBe(2);
    expect(chooseByOneSe([simplest])).toBe(0);
    expect(() => chooseByOneSe([])).toThrow(RangeError);
  });

  it('refuses losses of different rows', () => {
    expect(() => pairedDifference([1, 2], [1])).toThrow(RangeError);
    expect(() => pairedDifference([1, 2], [1, 2], [1])).toThrow(RangeError);
  });
});
