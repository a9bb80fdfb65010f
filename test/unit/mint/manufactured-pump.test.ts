import { manufacturedPump, PUMP_BARS, PUMP_PATH_S, pumpBarOf } from '../../../domain/launch/manufactured-pump';
import { mintSignals } from '../../../domain/launch/mint-signals';
import { handBuiltMint, T0 } from '../../support/hand-built-mint';

/** A path climbing by `r(i)` in bar i from a launch price of 1. */
const path = (r: (i: number) => number) => {
  const closes: (number | undefined)[] = [];
  let p = 1;
  for (let i = 0; i < PUMP_BARS; i++) closes.push((p *= 1 + r(i)));
  return { launchPrice: 1, closes };
};

describe('the manufactured-pump fingerprint', () => {
  it('marks a steady climb: every bar up by about the same step', () => {
    expect(
      manufacturedPump(
        path(() => 0.05),
        PUMP_PATH_S,
      ),
    ).toBe(true);
    expect(
      manufacturedPump(
        path((i) => 0.05 + (i % 2) * 0.01),
        PUMP_PATH_S,
      ),
    ).toBe(true);
  });

  it('does not mark a path with a flat or falling bar among the eight (7 of 8 positive is under 90%)', () => {
    const flat = path(() => 0.05);
    flat.closes[3] = undefined; // no trade in bar 3: the previous close carries, a zero return
    expect(manufacturedPump(flat, PUMP_PATH_S)).toBe(false);
    expect(
      manufacturedPump(
        path((i) => (i === 5 ? -0.01 : 0.05)),
        PUMP_PATH_S,
      ),
    ).toBe(false);
  });

  it('does not mark an erratic climb: returns whose coefficient of variation is 0.5 or more', () => {
    expect(
      manufacturedPump(
        path((i) => (i % 2 ? 0.3 : 0.01)),
        PUMP_PATH_S,
      ),
    ).toBe(false);
  });

  it('does not mark a mint with no trades, and answers null until the 40 s path is complete', () => {
    expect(manufacturedPump({ launchPrice: 1, closes: [] }, PUMP_PATH_S)).toBe(false);
    expect(
      manufacturedPump(
        path(() => 0.05),
        PUMP_PATH_S - 0.1,
      ),
    ).toBeNull();
  });

  it('puts a trade in its 5 s bar from the creation, and none past the path', () => {
    expect([pumpBarOf(T0 - 1000, T0), pumpBarOf(T0 + 4999, T0), pumpBarOf(T0 + 5000, T0), pumpBarOf(T0 + 39_999, T0), pumpBarOf(T0 + 40_000, T0)]).toEqual([
      0,
      0,
      1,
      7,
      null,
    ]);
  });
});

describe('manufactured_pump on the mint signals', () => {
  const signalsAt = (ageS: number, buys: readonly number[]) => {
    const m = handBuiltMint();
    buys.forEach((atS, i) => m.buy(atS, `Buyer${i}`, 0.5));
    return mintSignals(m.tape(), T0 + ageS * 1000, new Map()).bot.manufactured_pump;
  };
  const everyBar = Array.from({ length: PUMP_BARS }, (_, i) => i * 5 + 2);

  it('reads the tape: a buy of the same size in every 5 s bar is a manufactured pump, from 40 s of age on', () => {
    expect(signalsAt(39, everyBar)).toBeNull();
    expect(signalsAt(40, everyBar)).toBe(true);
    expect(signalsAt(600, everyBar)).toBe(true);
  });

  it('is false for a mint whose buys leave bars without a trade', () => {
    expect(signalsAt(60, [2, 7, 30])).toBe(false);
    expect(signalsAt(60, [])).toBe(false);
  });
});
