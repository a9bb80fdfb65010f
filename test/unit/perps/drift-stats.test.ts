import { driftMarketRollups, summariseDriftFile, type DriftFileSummary } from '../../../domain/perps/drift-market-rollup';
import { driftTradeKey, type DriftTrade } from '../../../domain/perps/drift-trade';
import { driftTraderStats } from '../../../domain/perps/drift-trader-stats';

const A = 'A'.repeat(44);
const B = 'B'.repeat(44);
const C = 'C'.repeat(44);
let id = 0;
function trade(at: number, taker: string, dir: 'long' | 'short', base: number, px: number, maker: string | null = null, marketIndex = 0): DriftTrade {
  return {
    at,
    txSig: '1'.repeat(88),
    slot: 1,
    fillRecordId: ++id,
    marketIndex,
    marketType: 'perp',
    action: 'fill',
    actionExplanation: maker ? 'orderFilledWithMatch' : 'orderFilledWithAmm',
    baseAmount: base,
    quoteAmountUsd: base * px,
    oraclePrice: px,
    taker,
    takerDirection: dir,
    maker,
    makerDirection: maker ? (dir === 'long' ? 'short' : 'long') : null,
    takerFeeUsd: base * px * 0.001,
    makerFeeUsd: maker ? -base * px * 0.0001 : 0,
  };
}
const names = (t: DriftTrade) => (t.marketIndex === 0 ? 'SOL-PERP' : 'BTC-PERP');

describe('Drift trader lifetime stats', () => {
  it('counts both roles, realises PnL on average cost and closes round trips', () => {
    const trades = [
      trade(1000, A, 'long', 1, 100, B),
      trade(2000, A, 'long', 1, 110),
      trade(3000, A, 'short', 2, 120, B),
      trade(4000, A, 'short', 1, 100, null, 1),
    ];
    const stats = driftTraderStats(trades, names);
    const a = stats.get(A)!;
    expect(a).toMatchObject({ trades: 4, roundTrips: 1, wins: 1, winRate: 1, firstTradeAt: 1000, lastTradeAt: 4000 });
    // Average 105, sold 2 at 120.
    expect(a.realizedPnlUsd).toBeCloseTo(30, 9);
    expect(a.volumeUsd).toBeCloseTo(100 + 110 + 240 + 100, 9);
    expect(a.feesUsd).toBeCloseTo(0.55, 9);
    expect(a.byMarket).toEqual([
      { market: 'SOL-PERP', trades: 3, volumeUsd: 450 },
      { market: 'BTC-PERP', trades: 1, volumeUsd: 100 },
    ]);
    // B was the maker of two fills: short 1 at 100, long 2 at 120 → closes the short at a loss and flips long.
    const b = stats.get(B)!;
    expect(b).toMatchObject({ trades: 2, roundTrips: 1, wins: 0 });
    expect(b.realizedPnlUsd).toBeCloseTo(-20, 9);
    expect(b.feesUsd).toBeLessThan(0);
  });

  it('carries a flip into a new position at the flip price', () => {
    const stats = driftTraderStats([trade(1, C, 'long', 1, 100), trade(2, C, 'short', 3, 90), trade(3, C, 'long', 2, 80)], names);
    expect(stats.get(C)).toMatchObject({ roundTrips: 2, wins: 1 });
    expect(stats.get(C)!.realizedPnlUsd).toBeCloseTo(-10 + 20, 9);
  });

  it('has no win rate for a trader who never came back to flat', () => {
    expect(driftTraderStats([trade(1, C, 'long', 1, 100)], names).get(C)).toMatchObject({ roundTrips: 0, winRate: null, realizedPnlUsd: 0 });
  });
});

describe('Drift market rollups', () => {
  const file = (market: string, date: string, rows: number, ingestedAt: number, volumeUsd = rows * 10): DriftFileSummary => ({
    fileKey: `market/${market}/tradeRecords/${date.slice(0, 4)}/${date.replaceAll('-', '')}`,
    market,
    date,
    rows,
    volumeUsd,
    traders: 1,
    firstTradeAt: null,
    lastTradeAt: null,
    ingestedAt,
    sha256: '0'.repeat(64),
  });

  it('rolls up files, rows, volume and date range per market, newest ingested files first', () => {
    const rollups = driftMarketRollups(
      [file('SOL-PERP', '2024-01-02', 5, 20), file('SOL-PERP', '2024-01-01', 3, 30), file('BTC-PERP', '2024-03-01', 1, 10)],
      1,
    );
    expect(rollups).toEqual([
      {
        market: 'BTC-PERP',
        files: 1,
        tradeRows: 1,
        volumeUsd: 10,
        firstDate: '2024-03-01',
        lastDate: '2024-03-01',
        recentFiles: [{ fileKey: 'market/BTC-PERP/tradeRecords/2024/20240301', date: '2024-03-01', rows: 1, ingestedAt: 10 }],
      },
      {
        market: 'SOL-PERP',
        files: 2,
        tradeRows: 8,
        volumeUsd: 80,
        firstDate: '2024-01-01',
        lastDate: '2024-01-02',
        recentFiles: [{ fileKey: 'market/SOL-PERP/tradeRecords/2024/20240101', date: '2024-01-01', rows: 3, ingestedAt: 30 }],
      },
    ]);
  });

  it('counts a file imported twice once, with its latest summary', () => {
    const [sol] = driftMarketRollups([file('SOL-PERP', '2024-01-01', 3, 10), file('SOL-PERP', '2024-01-01', 4, 20)]);
    expect(sol).toMatchObject({ files: 1, tradeRows: 4 });
  });

  it('summarises a file from its trades (distinct traders across both roles)', () => {
    const trades = [trade(5000, A, 'long', 1, 100, B), trade(6000, C, 'short', 2, 100)];
    expect(summariseDriftFile({ fileKey: 'k', market: 'SOL-PERP', date: '2024-01-01', sha256: 'x', ingestedAt: 1 }, trades)).toEqual({
      fileKey: 'k',
      market: 'SOL-PERP',
      date: '2024-01-01',
      sha256: 'x',
      ingestedAt: 1,
      rows: 2,
      volumeUsd: 300,
      traders: 3,
      firstTradeAt: 5000,
      lastTradeAt: 6000,
    });
    expect(driftTradeKey(trades[0]!)).toBe(`perp:0:${trades[0]!.fillRecordId}`);
  });
});
