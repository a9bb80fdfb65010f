import { createLogThrottle } from '../../../platform/logger';

describe('one log line per cause per interval', () => {
  it('admits the first occurrence, counts the rest, and reports the count with the next line', () => {
    let t = 0;
    const throttle = createLogThrottle(10_000, () => t);
    expect(throttle.admit('db down')).toBe(0);
    for (let i = 0; i < 15_000; i++) expect(throttle.admit('db down')).toBeUndefined();
    expect(throttle.admit('temporal down')).toBe(0);
    t = 10_000;
    expect(throttle.admit('db down')).toBe(15_000);
    expect(throttle.admit('db down')).toBeUndefined();
    t = 25_000;
    expect(throttle.admit('db down')).toBe(1);
  });

  it('keeps a bounded memory of causes', () => {
    const throttle = createLogThrottle(10_000, () => 0);
    for (let i = 0; i < 10_000; i++) throttle.admit(`cause ${i}`);
    // The oldest were forgotten: the first one is admitted again at once.
    expect(throttle.admit('cause 0')).toBe(0);
    expect(throttle.admit('cause 9999')).toBeUndefined();
  });
});
