import { baseWeight, itemsWeight } from '../../../clients/hyperliquid/request-weights';
import { WeightBudget } from '../../../clients/hyperliquid/weight-budget';

/** A clock that only moves when the budget sleeps, so waits are exact. */
function fakeClock() {
  let t = 0;
  return { now: () => t, sleep: async (ms: number) => void (t += ms), at: () => t };
}

describe('Hyperliquid request weights', () => {
  it('follows the documented table', () => {
    expect(['allMids', 'clearinghouseState', 'l2Book'].map(baseWeight)).toEqual([2, 2, 2]);
    expect(['metaAndAssetCtxs', 'userFills', 'portfolio', 'candleSnapshot'].map(baseWeight)).toEqual([20, 20, 20, 20]);
    expect(baseWeight('userRole')).toBe(60);
    expect(itemsWeight('userFills', 500)).toBe(25);
    expect(itemsWeight('fundingHistory', 19)).toBe(0);
    expect(itemsWeight('candleSnapshot', 500)).toBe(8);
    expect(itemsWeight('clearinghouseState', 500)).toBe(0);
  });
});

describe('WeightBudget', () => {
  it('lets the burst out at once, then spends at the refill rate', async () => {
    const clock = fakeClock();
    // 1200/min, burst 120, refill 1080/min = 18 per second.
    const b = new WeightBudget({ weightPerMinute: 1200, now: clock.now, sleep: clock.sleep });
    for (let i = 0; i < 6; i++) await b.acquire(20);
    expect(clock.at()).toBe(0);
    await b.acquire(20);
    expect(clock.at()).toBeCloseTo(20_000 / 18, -1);
  });

  it('never spends more than the budget in any 60 s window', async () => {
    const clock = fakeClock();
    const b = new WeightBudget({ weightPerMinute: 1200, now: clock.now, sleep: clock.sleep });
    const spentAt: number[] = [];
    for (let i = 0; i < 400; i++) {
      await b.acquire(20);
      spentAt.push(clock.at());
    }
    for (let i = 0; i < spentAt.length; i++) {
      const inWindow = spentAt.filter((t) => t >= spentAt[i]! && t < spentAt[i]! + 60_000).length;
      expect(inWindow * 20).toBeLessThanOrEqual(1200);
    }
    // …and uses it: the long-run rate is the refill rate.
    expect(spentAt.at(-1)! / 1000).toBeCloseTo(((400 - 6) * 20) / 18, -1);
  });

  it('serves callers in arrival order and lets a weight above the burst through on a full bucket', async () => {
    const clock = fakeClock();
    const b = new WeightBudget({ weightPerMinute: 600, now: clock.now, sleep: clock.sleep });
    const order: string[] = [];
    await Promise.all([b.acquire(60).then(() => order.push('a')), b.acquire(200).then(() => order.push('big')), b.acquire(2).then(() => order.push('c'))]);
    expect(order).toEqual(['a', 'big', 'c']);
    // The big one went out on a full bucket (60) and left a debt of 140 that the small one waited out.
    expect(b.stats().spent).toBe(262);
  });

  it('charges weight learned afterwards as a debt that delays the next caller', async () => {
    const clock = fakeClock();
    const b = new WeightBudget({ weightPerMinute: 1200, now: clock.now, sleep: clock.sleep });
    await b.acquire(20);
    b.charge(200);
    await b.acquire(2);
    // 100 left − 200 charged = −100; 2 more needed: 102 at 18/s.
    expect(clock.at()).toBeCloseTo((102 / 18) * 1000, -1);
  });

  it('stops spending for the penalty after a 429 and restarts from an empty bucket', async () => {
    const clock = fakeClock();
    const b = new WeightBudget({ weightPerMinute: 1200, now: clock.now, sleep: clock.sleep });
    b.penalize(5_000);
    await b.acquire(2);
    expect(clock.at()).toBeGreaterThanOrEqual(5_000);
    expect(b.stats().penalties).toBe(1);
  });
});
