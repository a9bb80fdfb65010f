import { COMPONENTS, computeConditions, historyHours, percentileRank, temperatureLabel, type WindowActivity } from '../../../domain/market/market-temperature';

const H = 3_600_000;
const activity = (x: number): WindowActivity => ({
  launches: x,
  graduations: x / 10,
  trades: x * 50,
  volumeLamports: x * 1e9,
  uniqueBuyers: x * 3,
  vsolInflowLamports: x * 1e8,
});

describe('percentileRank (mid-rank)', () => {
  it('puts a value below, above and amid the history where it belongs', () => {
    const hist = [1, 2, 3, 4];
    expect(percentileRank(0, hist)).toBe(0);
    expect(percentileRank(5, hist)).toBe(1);
    expect(percentileRank(2.5, hist)).toBe(0.5);
    expect(percentileRank(2, hist)).toBe(0.375); // one below, one equal
  });
  it('gives a value equal to every past hour the middle, not an extreme', () => {
    expect(percentileRank(7, [7, 7, 7])).toBe(0.5);
  });
  it('refuses an empty history rather than inventing a rank', () => {
    expect(() => percentileRank(1, [])).toThrow();
  });
});

describe('temperature labels', () => {
  it.each([
    [0, 'cold'],
    [19.99, 'cold'],
    [20, 'cool'],
    [40, 'normal'],
    [59.99, 'normal'],
    [60, 'warm'],
    [80, 'hot'],
    [100, 'hot'],
  ])('%d → %s', (t, label) => expect(temperatureLabel(t)).toBe(label));
});

describe('computeConditions', () => {
  it('weights sum to one', () => {
    expect(COMPONENTS.reduce((s, c) => s + c.weight, 0)).toBeCloseTo(1, 12);
  });

  it('is warming until the minimum history exists', () => {
    const hist = Array.from({ length: 23 }, (_, i) => activity(i + 1));
    expect(computeConditions(activity(5), hist, 24)).toEqual({ warming: true, historyHours: 23 });
    expect(computeConditions(activity(5), [], 1)).toEqual({ warming: true, historyHours: 0 });
  });

  it('reads a record hour as hot and a dead hour as cold', () => {
    const hist = Array.from({ length: 48 }, (_, i) => activity(10 + (i % 7)));
    const hot = computeConditions(activity(100), hist, 24);
    const cold = computeConditions(activity(0), hist, 24);
    if ('warming' in hot || 'warming' in cold) throw new Error('expected ready');
    expect(hot.temperature).toBe(100);
    expect(hot.label).toBe('hot');
    expect(hot.components.map((c) => c.percentile)).toEqual([1, 1, 1, 1, 1]);
    expect(cold.temperature).toBe(0);
    expect(cold.label).toBe('cold');
  });

  it('is the weighted mean of the component percentiles', () => {
    const hist = [activity(1), activity(2), activity(3), activity(4)];
    // Launches rank top, everything else bottom: 100 × 0.25.
    const mixed: WindowActivity = { launches: 9, graduations: 0, trades: 0, volumeLamports: 0, uniqueBuyers: 0, vsolInflowLamports: -1e9 };
    const c = computeConditions(mixed, hist, 1);
    if ('warming' in c) throw new Error('expected ready');
    expect(c.temperature).toBe(25);
    expect(c.label).toBe('cool');
    expect(c.components.find((x) => x.name === 'vsol_inflow')).toEqual({ name: 'vsol_inflow', value: -1, percentile: 0, weight: 0.15, window: '1h' });
  });
});

describe('historyHours', () => {
  const now = Date.UTC(2026, 10, 23, 12, 40);
  it('is empty before anything was observed', () => {
    expect(historyHours(now, null)).toEqual([]);
  });
  it('skips the partial first hour and the running current hour', () => {
    const hours = historyHours(now, Date.UTC(2026, 10, 23, 9, 15));
    expect(hours).toEqual([Date.UTC(2026, 10, 23, 10), Date.UTC(2026, 10, 23, 11)]);
  });
  it('never reaches back more than 35 days', () => {
    const hours = historyHours(now, Date.UTC(2025, 0, 1));
    expect(hours).toHaveLength(35 * 24);
    expect(hours[hours.length - 1]).toBe(Date.UTC(2026, 10, 23, 11));
    expect(hours[1]! - hours[0]!).toBe(H);
  });
});
