import { priceSol } from '../../../domain/launch/launch-events';
import { MintTape } from '../../../domain/launch/mint-tape';
import { RUNNER_GRID_AGES_S, runnerGridAge, runnerObservations } from '../../../domain/scoring/runner-grid';
import { runnerNowFeatures } from '../../../domain/scoring/runner-now-features';
import { handBuiltMint, T0 } from '../../support/hand-built-mint';

const HORIZON = new Date(T0 + 24 * 3600_000);
const priceOf = (t: { vSolLamports: number; vTokensRaw: number }) => priceSol(t.vSolLamports, t.vTokensRaw);

/** A mint that trades quietly for 4 minutes, then pumps hard at 7 minutes and fades. */
function pumpAtSevenMinutes() {
  const m = handBuiltMint();
  m.buy(0, 'DEV', 1);
  for (let s = 5; s <= 240; s += 5) m.buy(s, `w${s}`, 0.2);
  m.sell(250, 'w5', 1e12);
  m.buy(420, 'whale', 60);
  m.sell(700, 'whale', 1e14);
  return m;
}

describe('runner grid rows', () => {
  it('labels each grid age by the peak after it over the price at it, from stored trades', () => {
    const m = pumpAtSevenMinutes();
    const rows = runnerObservations({ create: m.create, tradesAnyOrder: m.trades, graduatedAt: null, horizonAt: HORIZON });
    expect(rows.map((r) => r.ageS)).toEqual([...RUNNER_GRID_AGES_S]);
    const peak = Math.max(...m.trades.map(priceOf));
    for (const r of rows) {
      const cutoff = T0 + r.ageS * 1000;
      const seen = m.trades.filter((t) => t.at.getTime() <= cutoff);
      const price = seen.length ? priceOf(seen[seen.length - 1]!) : priceSol(m.create.vSolLamports, m.create.vTokensRaw);
      const later = m.trades.filter((t) => t.at.getTime() > cutoff).map(priceOf);
      expect(r.priceSol).toBe(price);
      expect(r.peakMult).toBeCloseTo(Math.max(price, ...later) / price, 12);
      expect(r.observedAt.getTime()).toBe(cutoff);
    }
    // Before the pump the whale's buy is ahead; at 10 and 20 min it is behind, and the fade cannot count.
    expect(rows.find((r) => r.ageS === 300)!.peakMult).toBeCloseTo(peak / rows.find((r) => r.ageS === 300)!.priceSol, 12);
    expect(rows.find((r) => r.ageS === 600)!.peakMult).toBe(1);
  });

  it('lets nothing after the cutoff into a row: features equal those of the trades up to it alone', () => {
    const m = pumpAtSevenMinutes();
    const rows = runnerObservations({ create: m.create, tradesAnyOrder: m.trades, graduatedAt: null, horizonAt: HORIZON });
    for (const r of rows) {
      const cutoff = T0 + r.ageS * 1000;
      const tape = new MintTape(m.create);
      for (const t of m.trades) if (t.at.getTime() <= cutoff) tape.apply(t);
      expect(r.features).toEqual(runnerNowFeatures(tape, cutoff));
    }
    // The same mint with every trade after 5 min removed has identical rows up to 5 min.
    const cut = m.trades.filter((t) => t.at.getTime() <= T0 + 300_000);
    const truncated = runnerObservations({ create: m.create, tradesAnyOrder: cut, graduatedAt: null, horizonAt: HORIZON });
    expect(truncated.filter((r) => r.ageS <= 300).map((r) => r.features)).toEqual(rows.filter((r) => r.ageS <= 300).map((r) => r.features));
    // …and the 5 min row's label is what changed: the pump after it.
    expect(truncated.find((r) => r.ageS === 300)!.peakMult).toBe(1);
    expect(rows.find((r) => r.ageS === 300)!.peakMult).toBeGreaterThan(5);
  });

  it('counts a trade in the cutoff second as seen, not as the future', () => {
    const m = handBuiltMint();
    m.buy(60, 'a', 5);
    const [, , at60] = runnerObservations({ create: m.create, tradesAnyOrder: m.trades, graduatedAt: null, horizonAt: HORIZON });
    expect(at60!.ageS).toBe(60);
    expect(at60!.priceSol).toBe(priceOf(m.trades[0]!));
    expect(at60!.peakMult).toBe(1);
  });

  it('takes trades in any order, and refuses another mint’s trade', () => {
    const m = pumpAtSevenMinutes();
    const a = runnerObservations({ create: m.create, tradesAnyOrder: m.trades, graduatedAt: null, horizonAt: HORIZON });
    const b = runnerObservations({ create: m.create, tradesAnyOrder: [...m.trades].reverse(), graduatedAt: null, horizonAt: HORIZON });
    expect(b).toEqual(a);
    const other = handBuiltMint({ mint: 'OTHER' });
    other.buy(1, 'x', 1);
    expect(() => runnerObservations({ create: m.create, tradesAnyOrder: [...m.trades, ...other.trades], graduatedAt: null, horizonAt: HORIZON })).toThrow(
      /not MINT/,
    );
  });

  it('gives no row at or after graduation or past the horizon; DEX prices count toward a graduate’s peak', () => {
    const m = pumpAtSevenMinutes();
    const grad = new Date(T0 + 300_000);
    const rows = runnerObservations({ create: m.create, tradesAnyOrder: m.trades, graduatedAt: grad, horizonAt: HORIZON, checkpointPricesSol: [1] });
    expect(rows.map((r) => r.ageS)).toEqual([10, 30, 60, 120]);
    for (const r of rows) expect(r.peakMult).toBeCloseTo(1 / r.priceSol, 6);
    const short = runnerObservations({ create: m.create, tradesAnyOrder: m.trades, graduatedAt: null, horizonAt: new Date(T0 + 90_000) });
    expect(short.map((r) => r.ageS)).toEqual([10, 30, 60]);
    // Not a graduate: a DEX price is not part of its label.
    const dud = runnerObservations({ create: m.create, tradesAnyOrder: m.trades, graduatedAt: null, horizonAt: HORIZON, checkpointPricesSol: [1] });
    expect(dud.find((r) => r.ageS === 600)!.peakMult).toBe(1);
  });
});

describe('which grid age serves a live mint', () => {
  it('is the nearest grid age on a log scale, the first below it and the last past it', () => {
    expect([0, 5, 10, 17, 18, 40, 45, 100, 200, 240, 3600].map(runnerGridAge)).toEqual([10, 10, 10, 10, 30, 30, 60, 120, 300, 300, 1800]);
    for (const g of RUNNER_GRID_AGES_S) expect(runnerGridAge(g)).toBe(g);
    expect(() => runnerGridAge(-1)).toThrow(RangeError);
  });
});

describe('runner-now features', () => {
  it('reads the curve position once, the drawdown from the peak and the last minute’s SOL', () => {
    const m = handBuiltMint();
    m.buy(1, 'DEV', 1);
    m.buy(10, 'a', 10);
    m.sell(50, 'a', 1e13);
    m.sell(55, 'DEV', 1e12);
    const tape = m.tape();
    const f = runnerNowFeatures(tape, T0 + 80_000);
    expect(f.logMult).toBeCloseTo(Math.log(tape.price / tape.launchPrice), 12);
    expect(f.offPeak).toBeCloseTo(tape.price / tape.peakPrice, 12);
    expect(f.offPeak).toBeLessThan(1);
    expect(f.sellShare).toBe(0.5);
    expect(f.creatorSold).toBe(1);
    expect(f.logBuyers).toBeCloseTo(Math.log1p(1), 12); // the creator is not a buyer
    expect(f.topHolderShare).toBe(1);
    // At 80 s only the two sells (50 s and 55 s) are inside the last minute: SOL left the curve.
    expect(f.vSolAdded60sSol).toBeLessThan(0);
  });
});
