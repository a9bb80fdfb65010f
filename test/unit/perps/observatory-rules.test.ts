import { discoveredTaker } from '../../../domain/perps/discovery-rule';
import { HYPERLIQUID, HYPERLIQUID_SIMULATOR, perpsExchangeName } from '../../../domain/perps/exchange-name';
import { fundingApr, nextHourlyFunding, pollerHealth, worseHealth } from '../../../domain/perps/observatory-rules';
import type { PositionSnapshot, WalletSnapshot } from '../../../domain/perps/perps-types';
import { budgetedCadence, fillsRefreshDue, snapshotCapacityPerS, somethingRealised, walletsPerSweep } from '../../../domain/perps/snapshot-policy';

const pos = (market: string, side: 'long' | 'short', size: number): PositionSnapshot => ({
  market,
  side,
  size,
  entryPx: 100,
  positionValueUsd: size * 100,
  unrealizedPnlUsd: 0,
  leverage: 5,
  leverageType: 'cross',
  liquidationPx: null,
  marginUsedUsd: 20 * size,
});
const snap = (at: number, positions: PositionSnapshot[]): WalletSnapshot => ({ wallet: '0xabc', at, accountValueUsd: 1000, positions });

describe('the observatory rules', () => {
  it('rates a poller by the age of its last success in periods', () => {
    expect(pollerHealth(null, 1_000_000, 60)).toBe('down');
    expect(pollerHealth(1_000_000 - 179_999, 1_000_000, 60)).toBe('ok');
    expect(pollerHealth(1_000_000 - 180_000, 1_000_000, 60)).toBe('degraded');
    expect(pollerHealth(1_000_000 - 599_999, 1_000_000, 60)).toBe('degraded');
    expect(pollerHealth(1_000_000 - 600_000, 1_000_000, 60)).toBe('down');
    expect(worseHealth('ok', 'degraded')).toBe('degraded');
    expect(worseHealth('down', 'ok')).toBe('down');
    expect(worseHealth('ok', 'ok')).toBe('ok');
  });

  it('quotes hourly funding yearly and names the next whole hour', () => {
    expect(fundingApr(0.0000125)).toBeCloseTo(0.1095, 12);
    expect(nextHourlyFunding(Date.parse('2026-11-24T03:59:59.999Z'))).toBe(Date.parse('2026-11-24T04:00:00Z'));
    expect(nextHourlyFunding(Date.parse('2026-11-24T04:00:00Z'))).toBe(Date.parse('2026-11-24T05:00:00Z'));
  });

  it('discovers the taker of a large trade, never the maker', () => {
    const t = { buyer: '0xb', seller: '0xs', notionalUsd: 50_000 };
    expect(discoveredTaker({ ...t, side: 'buy' }, 50_000)).toBe('0xb');
    expect(discoveredTaker({ ...t, side: 'sell' }, 50_000)).toBe('0xs');
    expect(discoveredTaker({ ...t, side: 'buy' }, 50_001)).toBeNull();
    expect(discoveredTaker({ ...t, notionalUsd: Number.NaN, side: 'buy' }, 1)).toBeNull();
  });

  it('names the simulator apart from the real exchange', () => {
    expect(perpsExchangeName('hyperliquid')).toBe(HYPERLIQUID);
    expect(perpsExchangeName('simulator')).toBe(HYPERLIQUID_SIMULATOR);
  });
});

describe('the snapshot policy', () => {
  it('sees something realised when a position shrank, closed or flipped, not when it grew or opened', () => {
    const prev = snap(0, [pos('BTC', 'long', 2), pos('ETH', 'short', 1)]);
    expect(somethingRealised(null, prev)).toBe(false);
    expect(somethingRealised(prev, snap(1, [pos('BTC', 'long', 3), pos('ETH', 'short', 1), pos('SOL', 'long', 1)]))).toBe(false);
    expect(somethingRealised(prev, snap(1, [pos('BTC', 'long', 1.5), pos('ETH', 'short', 1)]))).toBe(true);
    expect(somethingRealised(prev, snap(1, [pos('BTC', 'long', 2)]))).toBe(true);
    expect(somethingRealised(prev, snap(1, [pos('BTC', 'short', 2), pos('ETH', 'short', 1)]))).toBe(true);
  });

  it('reads fills first, daily, and after a realisation no more often than the minimum interval', () => {
    const prev = snap(0, [pos('BTC', 'long', 2)]);
    const closed = snap(1, []);
    const same = snap(1, [pos('BTC', 'long', 2)]);
    const now = 10 * 86_400_000;
    expect(fillsRefreshDue({ prev: null, next: same, lastRefreshAt: null, now, minIntervalS: 600 })).toBe(true);
    expect(fillsRefreshDue({ prev, next: same, lastRefreshAt: now - 86_400_000, now, minIntervalS: 600 })).toBe(true);
    expect(fillsRefreshDue({ prev, next: same, lastRefreshAt: now - 3_600_000, now, minIntervalS: 600 })).toBe(false);
    expect(fillsRefreshDue({ prev, next: closed, lastRefreshAt: now - 600_000, now, minIntervalS: 600 })).toBe(true);
    expect(fillsRefreshDue({ prev, next: closed, lastRefreshAt: now - 599_999, now, minIntervalS: 600 })).toBe(false);
  });

  it('plans as many wallets per sweep as its share of the weight budget pays for', () => {
    // 1200 weight/min, half of it for snapshots, a 60 s sweep, 2 per snapshot: 300 wallets.
    expect(walletsPerSweep(1200, 0.5, 60)).toBe(300);
    expect(walletsPerSweep(1, 0.01, 1)).toBe(1);
  });
});

describe('budgetedCadence (the snapshot cadence the weight budget keeps)', () => {
  const configured = { hotS: 60, coldS: 900 };
  it('keeps the configured cadence when it fits in 90% of the capacity, exactly at the edge too', () => {
    // 6/s capacity → 5.4/s planned: 60 hot every 60 s (1/s) + 3,960 cold every 900 s (4.4/s) = 5.4/s.
    expect(budgetedCadence({ hot: 60, cold: 3960 }, configured, 6)).toEqual({ ...configured, fits: true });
    expect(budgetedCadence({ hot: 0, cold: 0 }, configured, 6)).toEqual({ ...configured, fits: true });
  });
  it('stretches the cold cadence first, so the hot wallets keep theirs', () => {
    // 5,000 watched at the default budget, 100 of them hot (1.7/s): the cold cadence stretches to what is left.
    const c = budgetedCadence({ hot: 100, cold: 4900 }, configured, 6);
    expect(c).toEqual({ hotS: 60, coldS: Math.ceil(4900 / (5.4 - 100 / 60)), fits: false });
    expect(100 / c.hotS + 4900 / c.coldS).toBeLessThanOrEqual(5.4);
  });
  it('gives hot wallets three quarters of the capacity when they alone need more', () => {
    const c = budgetedCadence({ hot: 500, cold: 4500 }, configured, 6);
    expect(c).toEqual({ hotS: Math.ceil(500 / 4.05), coldS: Math.ceil(4500 / 1.35), fits: false });
    expect(500 / c.hotS + 4500 / c.coldS).toBeLessThanOrEqual(5.4);
    expect(budgetedCadence({ hot: 500, cold: 0 }, configured, 6)).toEqual({ hotS: Math.ceil(500 / 5.4), coldS: 900, fits: false });
  });
  it('never plans faster than configured', () => {
    const c = budgetedCadence({ hot: 1, cold: 100_000 }, { hotS: 5, coldS: 5 }, 1000);
    expect(c.hotS).toBe(5);
    expect(c.coldS).toBeGreaterThanOrEqual(5);
    expect(snapshotCapacityPerS(900, 0.8)).toBe(6);
  });
});
