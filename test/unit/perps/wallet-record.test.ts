import { closedEntries } from '../../../domain/perps/closed-entries';
import type { WalletFill, WalletSnapshot } from '../../../domain/perps/perps-types';
import { judgeWallet, PERPS_SMART_V1, wilsonLowerBound } from '../../../domain/perps/smart-rule';
import { ROI_WINDOW_MS, walletRecord } from '../../../domain/perps/wallet-record';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 20);
let t = NOW - 10 * DAY;
/** A fill as Hyperliquid reports it; `start` is the signed position before it. */
function fill(
  market: string,
  side: 'buy' | 'sell',
  size: number,
  px: number,
  start: number,
  closedPnlUsd = 0,
  feeUsd = 0,
  extra: Partial<WalletFill> = {},
): WalletFill {
  t += 60_000;
  return { market, px, size, side, time: t, startPosition: start, dir: '', closedPnlUsd, feeUsd, hash: `0x${t}`, liquidation: false, ...extra };
}
const snapshot = (accountValueUsd: number, positions: WalletSnapshot['positions'] = []): WalletSnapshot => ({
  wallet: '0xabc',
  at: NOW,
  accountValueUsd,
  positions,
});

describe('closed entries from fills', () => {
  it('closes a round trip when the position returns to flat, its PnL net of every fee', () => {
    const fills = [fill('ETH', 'buy', 1, 100, 0, 0, 1), fill('ETH', 'buy', 1, 110, 1, 0, 1), fill('ETH', 'sell', 2, 120, 2, 30, 1)];
    const { closed, open } = closedEntries(fills);
    expect(closed).toEqual([
      { market: 'ETH', side: 'long', openedAt: fills[0]!.time, closedAt: fills[2]!.time, pnlUsd: 27, volumeUsd: 100 + 110 + 240, fills: 3, liquidated: false },
    ]);
    expect(open.size).toBe(0);
  });

  it('splits a flip into the trip it closes and the one it opens, fee by size', () => {
    const fills = [fill('BTC', 'buy', 1, 100, 0), fill('BTC', 'sell', 3, 90, 1, -10, 3), fill('BTC', 'buy', 2, 80, -2, 20, 0)];
    const { closed } = closedEntries(fills);
    expect(closed.map((c) => [c.side, c.pnlUsd])).toEqual([
      ['long', -10 - 1],
      ['short', 20 - 2],
    ]);
  });

  it('counts a trip whose opening is older than the fills given, from its close', () => {
    const { closed, open } = closedEntries([fill('SOL', 'sell', 5, 20, 5, 12, 0.5), fill('SOL', 'buy', 1, 21, 0)]);
    expect(closed).toMatchObject([{ market: 'SOL', side: 'long', pnlUsd: 11.5 }]);
    expect(open.get('SOL')).toMatchObject({ side: 'long' });
  });

  it('keeps markets apart and marks a trip closed by liquidation', () => {
    const fills = [fill('ETH', 'buy', 1, 100, 0), fill('BTC', 'sell', 1, 100, 0), fill('ETH', 'sell', 1, 50, 1, -50, 0, { liquidation: true })];
    const { closed, open } = closedEntries(fills);
    expect(closed).toMatchObject([{ market: 'ETH', liquidated: true, pnlUsd: -50 }]);
    expect([...open.keys()]).toEqual(['BTC']);
  });
});

describe('wallet record', () => {
  it('measures ROI over 30 days against the equity the window started with', () => {
    const old = { ...fill('ETH', 'sell', 1, 100, 1, 500, 0), time: NOW - ROI_WINDOW_MS - DAY };
    const recent = [fill('ETH', 'buy', 1, 100, 0, 0, 2), fill('ETH', 'sell', 1, 110, 1, 10, 2)];
    const r = walletRecord('0xabc', [old, ...recent], snapshot(1006), NOW);
    expect(r.pnl30dUsd).toBe(6);
    expect(r.realizedPnlUsd).toBe(506);
    expect(r.roi30d).toBeCloseTo(6 / 1000, 12);
    expect(r).toMatchObject({ trades: 3, closedEntries: 2, wins: 2, winRate: 1, firstFillAt: old.time, lastFillAt: recent[1]!.time });
  });

  it('has no ROI without a snapshot or with too little starting equity, and no win rate without closed entries', () => {
    const fills = [fill('ETH', 'buy', 1, 100, 0)];
    expect(walletRecord('0xabc', fills, null, NOW)).toMatchObject({ roi30d: null, winRate: null, closedEntries: 0 });
    expect(walletRecord('0xabc', fills, snapshot(50), NOW).roi30d).toBeNull();
  });

  it('reads open notional and the largest position from the snapshot', () => {
    const pos = (market: string, positionValueUsd: number) => ({
      market,
      side: 'long' as const,
      size: 1,
      entryPx: 1,
      positionValueUsd,
      unrealizedPnlUsd: 0,
      leverage: 5,
      leverageType: 'cross' as const,
      liquidationPx: null,
      marginUsedUsd: 0,
    });
    const r = walletRecord('0xabc', [], snapshot(10_000, [pos('ETH', 3000), pos('BTC', 7000)]), NOW);
    expect(r).toMatchObject({ openNotionalUsd: 10_000, largestPositionUsd: 7000, trades: 0, firstFillAt: null });
  });
});

describe('smart rule perps-smart-v1', () => {
  const base = { roi30d: 0.1, closedEntries: 10, wins: 6, winRate: 0.6, largestPositionUsd: 0 };

  it('qualifies a wallet that meets every threshold, scored by the Wilson lower bound', () => {
    expect(judgeWallet(base)).toEqual({ ruleVersion: 'perps-smart-v1', smart: true, whale: false, smartScore: wilsonLowerBound(6, 10), unmet: [] });
    expect(wilsonLowerBound(6, 10)).toBeCloseTo(0.3127, 4);
  });

  it('names every threshold a wallet misses', () => {
    expect(judgeWallet({ ...base, roi30d: 0.099 }).unmet).toEqual(['roi30d']);
    expect(judgeWallet({ ...base, closedEntries: 9, wins: 5 }).unmet).toEqual(['closedEntries']);
    expect(judgeWallet({ ...base, winRate: 0.5, wins: 5 }).unmet).toEqual(['winRate']);
    expect(judgeWallet({ roi30d: null, closedEntries: 0, wins: 0, winRate: null, largestPositionUsd: 0 })).toMatchObject({
      smart: false,
      smartScore: null,
      unmet: ['roi30d', 'closedEntries', 'winRate'],
    });
  });

  it('ranks more evidence above the same rate, and flags whales by position value alone', () => {
    expect(wilsonLowerBound(60, 100)).toBeGreaterThan(wilsonLowerBound(30, 50));
    expect(judgeWallet({ ...base, roi30d: -1, largestPositionUsd: PERPS_SMART_V1.whalePositionUsd })).toMatchObject({ smart: false, whale: true });
  });
});
