import { creatorRecord, RUNNER_CREATOR_MIN_RATE } from '../../../domain/launch/creator-record';
import { resolveOutcome, RUG_LABEL_VERSION, RUG_MIN_PUMP, SUSTAIN_HORIZON_S, sustained30m } from '../../../domain/launch/outcome-labels';
import { CREATE_SLOT, T0, handBuiltMint } from '../../support/hand-built-mint';

describe('sustain_30m label', () => {
  it('is true only when every checkpoint up to 30 min held and the 30 min one was taken', () => {
    expect(
      sustained30m([
        { afterS: 300, held80: true },
        { afterS: 900, held80: true },
        { afterS: SUSTAIN_HORIZON_S, held80: true },
      ]),
    ).toBe(true);
    expect(
      sustained30m([
        { afterS: 300, held80: true },
        { afterS: 900, held80: false },
        { afterS: SUSTAIN_HORIZON_S, held80: true },
      ]),
    ).toBe(false);
  });

  it('is settled false by an early fall even when later checkpoints are missing, and unknown otherwise', () => {
    expect(
      sustained30m([
        { afterS: 300, held80: false },
        { afterS: 900, held80: null },
      ]),
    ).toBe(false);
    expect(
      sustained30m([
        { afterS: 300, held80: true },
        { afterS: 900, held80: true },
        { afterS: SUSTAIN_HORIZON_S, held80: null },
      ]),
    ).toBeNull();
    expect(sustained30m([])).toBeNull();
    // A checkpoint after the horizon does not count.
    expect(
      sustained30m([
        { afterS: SUSTAIN_HORIZON_S, held80: true },
        { afterS: 3600, held80: false },
      ]),
    ).toBe(true);
  });

  it('is computed at resolution for graduates only, with the peak multiple from launch', () => {
    const m = handBuiltMint();
    m.buy(10, 'A', 60);
    const horizonAt = new Date(T0 + 86_400_000);
    const cps = [
      { afterS: 300, held80: true },
      { afterS: 900, held80: true },
      { afterS: 1800, held80: true },
    ];
    const grad = resolveOutcome({
      create: m.create,
      trades: m.trades,
      horizonAt,
      graduatedAt: new Date(T0 + 20_000),
      checkpointPricesSol: [],
      checkpoints: cps,
    });
    expect(grad.sustained30m).toBe(true);
    expect(grad.peakMultFromLaunch).toBeCloseTo(grad.peakPriceSol / (30 / 1_073_000_000), 9);
    const dud = resolveOutcome({ create: m.create, trades: m.trades, horizonAt, graduatedAt: null, checkpointPricesSol: [], checkpoints: cps });
    expect(dud.sustained30m).toBeNull();
  });
});

describe('rug label (rug-v2)', () => {
  const resolve = (m: ReturnType<typeof handBuiltMint>, graduatedAt: Date | null = null) =>
    resolveOutcome({ create: m.create, trades: m.trades, horizonAt: new Date(T0 + 86_400_000), graduatedAt, checkpointPricesSol: [] });

  it('labels a rug when the insiders exit a pump and the price gives back most of its gain', () => {
    const m = handBuiltMint();
    const dev = m.buy(0, 'DEV', 1, CREATE_SLOT);
    const bundle = m.buy(0.1, 'B1', 4, CREATE_SLOT);
    m.buy(5, 'A', 2); // pumped to ~1.5x launch
    m.sell(40, 'B1', bundle);
    m.sell(41, 'DEV', dev);
    const o = resolve(m);
    expect(o.peakMultFromLaunch).toBeGreaterThanOrEqual(RUG_MIN_PUMP);
    expect(o).toMatchObject({ rugged: true, rugLabelVersion: RUG_LABEL_VERSION });
    expect(resolve(m, new Date(T0 + 60_000)).rugged).toBe(false); // a graduate is never a rug
  });

  it('is not a rug when the insiders only trim, when there was no pump, or when outsiders sold it down', () => {
    const trim = handBuiltMint();
    const b = trim.buy(0.1, 'B1', 4, CREATE_SLOT);
    trim.buy(5, 'A', 2);
    trim.sell(40, 'B1', Math.floor(b * 0.4));
    trim.sell(41, 'A', 1e12);
    expect(resolve(trim).rugged).toBe(false);

    const flat = handBuiltMint();
    const d = flat.buy(0, 'DEV', 0.5, CREATE_SLOT);
    flat.sell(60, 'DEV', d); // the dev left a launch nobody bought: ~1.03x peak
    expect(resolve(flat).rugged).toBe(false);

    const fade = handBuiltMint();
    fade.buy(0, 'DEV', 0.2, CREATE_SLOT);
    const a = fade.buy(5, 'A', 6);
    fade.sell(60, 'A', a); // the only big holder was an outsider
    expect(resolve(fade).rugged).toBe(false);
  });
});

describe('creator record', () => {
  it('is unknown without a resolved launch', () => {
    expect(creatorRecord(null)).toEqual({ nLaunches: 0, rate5x: null, runnerCreator: null });
    expect(creatorRecord({ nResolved: 0, n5x: 0, nGraduated: 0, nRugged: 0 })).toEqual({ nLaunches: 0, rate5x: null, runnerCreator: null });
  });

  it('counts resolved launches and the 5x share, and calls a runner only on a proven share', () => {
    expect(creatorRecord({ nResolved: 4, n5x: 1, nGraduated: 1, nRugged: 0 })).toEqual({ nLaunches: 4, rate5x: 0.25, runnerCreator: true });
    // One lucky coin in fifty is below the minimum rate.
    const serial = creatorRecord({ nResolved: 50, n5x: 1, nGraduated: 0, nRugged: 20 });
    expect(serial.rate5x).toBe(0.02);
    expect(serial.rate5x! < RUNNER_CREATOR_MIN_RATE && serial.runnerCreator === false).toBe(true);
    expect(creatorRecord({ nResolved: 3, n5x: 0, nGraduated: 0, nRugged: 3 })).toEqual({ nLaunches: 3, rate5x: 0, runnerCreator: false });
  });

  it('leaves the shown mint out of its own record once it has resolved', () => {
    expect(creatorRecord({ nResolved: 2, n5x: 1, nGraduated: 1, nRugged: 0 }, { reached5x: true })).toEqual({ nLaunches: 1, rate5x: 0, runnerCreator: false });
    expect(creatorRecord({ nResolved: 1, n5x: 1, nGraduated: 1, nRugged: 0 }, { reached5x: true })).toEqual({
      nLaunches: 0,
      rate5x: null,
      runnerCreator: null,
    });
  });
});
