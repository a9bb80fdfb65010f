import { priceSol } from '../../../domain/launch/launch-events';
import { LABEL_VERSION, priceAt } from '../../../domain/launch/outcome-labels';
import { resolvableAtMs, resolveComposite, resolvesAtMs, type ResolutionInput } from '../../../domain/signals/resolution';
import { T0, handBuiltMint } from '../../support/hand-built-mint';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A mint that pumps before the cross at 50 s, dips, then makes a smaller new high after it. */
function pumpedThenCrossed() {
  const m = handBuiltMint();
  const a = m.buy(5, 'A', 20); // the pump before the cross
  m.sell(30, 'A', Math.floor(a * 0.8));
  m.buy(70, 'B', 2); // after the cross
  m.buy(3 * 3600, 'C', 1);
  const crossedAtMs = T0 + 50_000;
  const priceAtCross = priceAt(m.create, m.trades, new Date(crossedAtMs));
  return { m, crossedAtMs, priceAtCross };
}

const input = (over: Partial<ResolutionInput> = {}): ResolutionInput => {
  const { m, crossedAtMs, priceAtCross } = pumpedThenCrossed();
  return { crossedAtMs, priceAtCrossSol: priceAtCross, trades: m.trades, graduatedAtMs: null, checkpoints: [], ...over };
};

describe('composite prediction resolution', () => {
  it('measures the peak from the price at the cross, never from launch', () => {
    const { m, crossedAtMs, priceAtCross } = pumpedThenCrossed();
    const o = resolveComposite(
      { crossedAtMs, priceAtCrossSol: priceAtCross, trades: m.trades, graduatedAtMs: null, checkpoints: [] },
      resolvesAtMs(crossedAtMs),
    )!;
    const last = m.trades[m.trades.length - 1]!;
    expect(o.peakMult24h).toBeCloseTo(priceSol(last.vSolLamports, last.vTokensRaw) / priceAtCross, 12);
    const launch = priceSol(m.create.vSolLamports, m.create.vTokensRaw);
    const pre = m.trades[0]!;
    // The pump before the cross (over 2x from launch) does not count.
    expect(priceSol(pre.vSolLamports, pre.vTokensRaw) / launch).toBeGreaterThan(2);
    expect(o.peakMult24h).toBeLessThan(1.5);
    expect(o).toMatchObject({ labelVersion: LABEL_VERSION, didGraduate: false, didSustain30m: null });
  });

  it('is 1 when nothing traded above the cross price, and ignores trades after the 24 h horizon', () => {
    const m = handBuiltMint();
    const a = m.buy(5, 'A', 5);
    m.sell(60, 'A', Math.floor(a / 2));
    const crossedAtMs = T0 + 10_000;
    const p = priceAt(m.create, m.trades, new Date(crossedAtMs));
    m.buy(24 * 3600 + 11, 'LATE', 50); // one second past the horizon
    expect(resolveComposite({ crossedAtMs, priceAtCrossSol: p, trades: m.trades, graduatedAtMs: null, checkpoints: [] }, crossedAtMs + DAY)!.peakMult24h).toBe(
      1,
    );
  });

  it('is not final before 24 h after the cross', () => {
    const i = input();
    expect(resolvesAtMs(i.crossedAtMs)).toBe(i.crossedAtMs + DAY);
    expect(resolveComposite(i, i.crossedAtMs + DAY - 1)).toBeNull();
    expect(resolveComposite(i, i.crossedAtMs + DAY)).not.toBeNull();
  });

  it('labels a graduate with sustain_30m from its DEX checkpoints, counting their prices toward the peak', () => {
    const i = input();
    const graduatedAtMs = i.crossedAtMs + 2 * HOUR;
    const cps = [
      { afterS: 300, held80: true, priceSol: i.priceAtCrossSol * 4 },
      { afterS: 900, held80: true, priceSol: i.priceAtCrossSol * 3 },
      { afterS: 1800, held80: true, priceSol: i.priceAtCrossSol * 3.5 },
    ];
    const o = resolveComposite({ ...i, graduatedAtMs, checkpoints: cps }, i.crossedAtMs + DAY)!;
    expect(o).toMatchObject({ didGraduate: true, didSustain30m: true });
    expect(o.peakMult24h).toBeCloseTo(4, 12);
    const fell = resolveComposite({ ...i, graduatedAtMs, checkpoints: [cps[0]!, { ...cps[1]!, held80: false }, cps[2]!] }, i.crossedAtMs + DAY)!;
    expect(fell.didSustain30m).toBe(false);
  });

  it('leaves sustain unknown when the price source was down, and the peak to the curve', () => {
    const i = input();
    const graduatedAtMs = i.crossedAtMs + 2 * HOUR;
    const down = [300, 900, 1800].map((afterS) => ({ afterS, held80: null, priceSol: null }));
    const o = resolveComposite({ ...i, graduatedAtMs, checkpoints: down }, i.crossedAtMs + DAY)!;
    expect(o).toMatchObject({ didGraduate: true, didSustain30m: null });
    expect(o.peakMult24h).toBe(resolveComposite(i, i.crossedAtMs + DAY)!.peakMult24h);
  });

  it('counts a graduation after the horizon as not graduated', () => {
    const i = input({ graduatedAtMs: T0 + 50_000 + DAY + 1, checkpoints: [{ afterS: 1800, held80: true, priceSol: 1 }] });
    expect(resolvableAtMs(i.crossedAtMs, i.graduatedAtMs)).toBe(i.crossedAtMs + DAY);
    const o = resolveComposite(i, i.crossedAtMs + DAY)!;
    expect(o).toMatchObject({ didGraduate: false, didSustain30m: null });
    expect(o.peakMult24h).toBeLessThan(1.5); // the post-graduation price does not count either
  });

  it('waits for the 30 min checkpoint of a graduation just inside the horizon, without counting its late price toward the peak', () => {
    const i = input();
    const graduatedAtMs = i.crossedAtMs + DAY - 10 * 60_000;
    expect(resolvableAtMs(i.crossedAtMs, graduatedAtMs)).toBe(graduatedAtMs + 30 * 60_000);
    const cps = [
      { afterS: 300, held80: true, priceSol: i.priceAtCrossSol * 2 },
      { afterS: 900, held80: true, priceSol: i.priceAtCrossSol * 9 }, // after the horizon
      { afterS: 1800, held80: true, priceSol: i.priceAtCrossSol * 2 },
    ];
    expect(resolveComposite({ ...i, graduatedAtMs, checkpoints: cps }, i.crossedAtMs + DAY)).toBeNull();
    const o = resolveComposite({ ...i, graduatedAtMs, checkpoints: cps }, graduatedAtMs + 30 * 60_000)!;
    expect(o).toMatchObject({ didGraduate: true, didSustain30m: true });
    expect(o.peakMult24h).toBeCloseTo(2, 12);
  });

  it('refuses a missing price at the cross', () => {
    expect(() => resolveComposite(input({ priceAtCrossSol: 0 }), Infinity)).toThrow(RangeError);
    expect(() => resolveComposite(input({ priceAtCrossSol: NaN }), Infinity)).toThrow(RangeError);
  });
});
