import { detectEntries, type EntryContext } from '../../../domain/perps/entry-detection';
import { judgeEntry, judgingSchedule } from '../../../domain/perps/entry-judging';
import { detectLiquidations } from '../../../domain/perps/liquidation-detection';
import type { PositionSnapshot, WalletFill, WalletSnapshot } from '../../../domain/perps/perps-types';
import { aggregateJudgments, horizonStats, mergeScopes } from '../../../domain/perps/win-rate-aggregation';

const T0 = Date.UTC(2026, 10, 20, 12);
const pos = (market: string, side: 'long' | 'short', size: number, entryPx: number, extra: Partial<PositionSnapshot> = {}): PositionSnapshot => ({
  market,
  side,
  size,
  entryPx,
  positionValueUsd: size * entryPx,
  unrealizedPnlUsd: 0,
  leverage: 10,
  leverageType: 'cross',
  liquidationPx: null,
  marginUsedUsd: (size * entryPx) / 10,
  ...extra,
});
const snap = (at: number, positions: PositionSnapshot[]): WalletSnapshot => ({ wallet: '0xw', at, accountValueUsd: 50_000, positions });
const ctx: EntryContext = {
  marks: { ETH: 2000, BTC: 60_000 },
  walletRoi30d: 0.2,
  verdict: { ruleVersion: 'perps-smart-v1', smart: true, whale: false, smartScore: 0.4, unmet: [] },
};

describe('entry detection from consecutive snapshots', () => {
  it('takes the first snapshot as a baseline', () => {
    expect(detectEntries(null, snap(T0, [pos('ETH', 'long', 1, 1900)]), ctx)).toEqual([]);
  });

  it('records a new position with the wallet record, the mark at detection and the whale flag', () => {
    const [e, ...rest] = detectEntries(snap(T0, []), snap(T0 + 60_000, [pos('BTC', 'short', 20, 59_000)]), ctx);
    expect(rest).toEqual([]);
    expect(e).toEqual({
      wallet: '0xw',
      market: 'BTC',
      side: 'short',
      kind: 'new',
      size: 20,
      positionSize: 20,
      entryPx: 59_000,
      positionValueUsd: 1_180_000,
      notionalUsd: 1_200_000,
      leverage: 10,
      priceAtDetection: 60_000,
      detectedAt: T0 + 60_000,
      walletRoi30d: 0.2,
      smart: true,
      smartScore: 0.4,
      whale: true,
      ruleVersion: 'perps-smart-v1',
      entryRuleVersion: 'entry-v1',
    });
  });

  it('treats a flip as a new entry on the other side', () => {
    const [e] = detectEntries(snap(T0, [pos('ETH', 'long', 1, 1900)]), snap(T0 + 1, [pos('ETH', 'short', 2, 2010)]), ctx);
    expect(e).toMatchObject({ kind: 'new', side: 'short', size: 2, entryPx: 2010 });
  });

  it('records an increase of at least 25 % at the marginal price of the added size, and ignores smaller ones', () => {
    const prev = snap(T0, [pos('ETH', 'long', 1, 100), pos('BTC', 'long', 1, 100)]);
    const next = snap(T0 + 1, [pos('ETH', 'long', 1.5, 102), pos('BTC', 'long', 1.2, 101)]);
    const entries = detectEntries(prev, next, ctx);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ market: 'ETH', kind: 'increase', size: 0.5, positionSize: 1.5 });
    expect(entries[0]!.entryPx).toBeCloseTo(106, 9);
    expect(detectEntries(next, snap(T0 + 2, [pos('ETH', 'long', 1, 102)]), ctx)).toEqual([]);
  });

  it('prices a market without a mark from the position value', () => {
    const [e] = detectEntries(snap(T0, []), snap(T0 + 1, [pos('DOGE', 'long', 1000, 0.1, { positionValueUsd: 110 })]), ctx);
    expect(e!.priceAtDetection).toBeCloseTo(0.11, 12);
  });
});

describe('liquidation detection', () => {
  const fill = (market: string, time: number, liquidation: boolean): WalletFill => ({
    market,
    px: 1500,
    size: 1,
    side: 'sell',
    time,
    startPosition: 1,
    dir: liquidation ? 'Liquidated Cross Long' : 'Close Long',
    closedPnlUsd: -500,
    feeUsd: 0,
    hash: '0x',
    liquidation,
  });
  const prev = snap(T0, [pos('ETH', 'long', 1, 2000, { liquidationPx: 1510 }), pos('BTC', 'short', 1, 60_000, { liquidationPx: 66_000 })]);

  it('finds a liquidation from the fills between the snapshots', () => {
    const found = detectLiquidations(prev, snap(T0 + 60_000, [prev.positions[1]!]), {}, [fill('ETH', T0 + 30_000, true), fill('ETH', T0 - 1, true)]);
    expect(found).toEqual([{ wallet: '0xw', market: 'ETH', side: 'long', size: 1, liquidationPx: 1510, markPx: 1500, at: T0 + 30_000, evidence: 'fill' }]);
    expect(detectLiquidations(prev, snap(T0 + 60_000, [prev.positions[1]!]), {}, [fill('ETH', T0 + 30_000, false)])).toEqual([]);
  });

  it('without fills, finds it from the mark price beyond the earlier liquidation price, for either side', () => {
    const next = snap(T0 + 60_000, []);
    const found = detectLiquidations(prev, next, { ETH: 1515, BTC: 66_100 }, null);
    expect(found.map((l) => [l.market, l.side, l.evidence])).toEqual([
      ['ETH', 'long', 'price'],
      ['BTC', 'short', 'price'],
    ]);
    expect(detectLiquidations(prev, next, { ETH: 1800, BTC: 60_000 }, null)).toEqual([]);
  });

  it('ignores positions that held or grew, and those without a liquidation price', () => {
    const p = snap(T0, [pos('ETH', 'long', 1, 2000)]);
    expect(detectLiquidations(p, snap(T0 + 1, []), { ETH: 1 }, null)).toEqual([]);
    expect(detectLiquidations(prev, prev, { ETH: 1, BTC: 1e9 }, null)).toEqual([]);
  });
});

describe('judging entries and aggregating win rates', () => {
  it('signs the move by side and wins only on a move in the entry direction', () => {
    const long = { side: 'long' as const, priceAtDetection: 2000, detectedAt: T0 };
    expect(judgeEntry(long, '1h', 2010)).toEqual({ horizon: '1h', price: 2010, moveBps: 50, win: true, judgedAt: T0 + 3_600_000 });
    expect(judgeEntry({ ...long, side: 'short' }, '5m', 2010)).toMatchObject({ moveBps: -50, win: false, judgedAt: T0 + 300_000 });
    expect(judgeEntry(long, '24h', 2000)).toMatchObject({ moveBps: 0, win: false });
    expect(() => judgeEntry(long, '1h', 0)).toThrow(RangeError);
    expect(judgingSchedule(T0).map((s) => s.dueAt - T0)).toEqual([300_000, 3_600_000, 86_400_000]);
  });

  it('aggregates per horizon per wallet, per market and overall, and merges partial sums exactly', () => {
    const j = (wallet: string, market: string, horizon: '5m' | '1h' | '24h', moveBps: number) => ({ wallet, market, horizon, moveBps, win: moveBps > 0 });
    const all = [j('a', 'ETH', '5m', 10), j('a', 'ETH', '5m', -30), j('b', 'ETH', '5m', 20), j('b', 'BTC', '1h', 40)];
    const { overall, byWallet, byMarket } = aggregateJudgments(all);
    expect(horizonStats(overall)).toEqual([
      { horizon: '5m', n: 3, winRate: 2 / 3, meanMoveBps: 0 },
      { horizon: '1h', n: 1, winRate: 1, meanMoveBps: 40 },
      { horizon: '24h', n: 0, winRate: null, meanMoveBps: null },
    ]);
    expect(horizonStats(byWallet.get('a')!)[0]).toEqual({ horizon: '5m', n: 2, winRate: 0.5, meanMoveBps: -10 });
    expect(horizonStats(byMarket.get('BTC')!)[1]).toEqual({ horizon: '1h', n: 1, winRate: 1, meanMoveBps: 40 });
    const merged = mergeScopes(aggregateJudgments(all.slice(0, 2)).overall, aggregateJudgments(all.slice(2)).overall);
    expect(merged).toEqual(overall);
  });
});
