import { leaderboardPicks, type LeaderboardEntry } from '../../../domain/perps/leaderboard-discovery';

const row = (wallet: string, accountValueUsd: number, month?: { pnlUsd: number; roi: number; volumeUsd: number }): LeaderboardEntry => ({
  wallet,
  accountValueUsd,
  windows: month ? { month, allTime: { pnlUsd: 1e9, roi: 9, volumeUsd: 1e12 } } : {},
});

describe('leaderboardPicks (leaderboard-v1)', () => {
  const rule = { top: 3, minAccountValueUsd: 10_000 };
  it('takes the top by 30-day PnL among funded accounts that traded and made money in the window', () => {
    const rows = [
      row('0xA', 50_000, { pnlUsd: 5_000, roi: 0.1, volumeUsd: 1e6 }),
      row('0xB', 9_999, { pnlUsd: 90_000, roi: 9, volumeUsd: 1e6 }), // under the account floor
      row('0xC', 10_000, { pnlUsd: 7_000, roi: 0.7, volumeUsd: 1e5 }), // exactly at the floor
      row('0xD', 1e7, { pnlUsd: -1, roi: 0, volumeUsd: 1e9 }), // lost money this month
      row('0xE', 1e7, { pnlUsd: 8_000, roi: 0.01, volumeUsd: 0 }), // no volume: PnL of a position held, not trading
      row('0xF', 1e6), // no month window
      row('0xG', 2e5, { pnlUsd: 6_000, roi: 0.03, volumeUsd: 5e5 }),
      row('0xH', 2e5, { pnlUsd: 1_000, roi: 0.005, volumeUsd: 5e5 }),
    ];
    expect(leaderboardPicks(rows, rule)).toEqual(['0xc', '0xg', '0xa']);
    expect(leaderboardPicks(rows, { ...rule, top: 10 })).toEqual(['0xc', '0xg', '0xa', '0xh']);
    expect(leaderboardPicks(rows, { ...rule, top: 0 })).toEqual([]);
  });
  it('breaks PnL ties by ROI then address, and lists a wallet once whatever its case', () => {
    const rows = [
      row('0xb2', 1e5, { pnlUsd: 100, roi: 0.1, volumeUsd: 1 }),
      row('0xB1', 1e5, { pnlUsd: 100, roi: 0.1, volumeUsd: 1 }),
      row('0xa9', 1e5, { pnlUsd: 100, roi: 0.2, volumeUsd: 1 }),
      row('0xA9', 1e5, { pnlUsd: 100, roi: 0.2, volumeUsd: 1 }),
    ];
    expect(leaderboardPicks(rows, { top: 10, minAccountValueUsd: 0 })).toEqual(['0xa9', '0xb1', '0xb2']);
  });
});
