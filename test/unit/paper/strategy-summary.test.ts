import { strategyById } from '../../../domain/paper/paper-config';
import { selectPostmortems } from '../../../domain/paper/postmortems';
import { summarizeStrategy } from '../../../domain/paper/strategy-summary';
import { closedAt, EXACT, heldAt, MIN, open, T0 } from './paper-fixtures';

const gp70 = strategyById('gp70');

/**
 * Four trades of 0.1 SOL each, by hand:
 *   A  opened 0,  take profit at 10 min, 0.12 SOL back   +0.020
 *   B  opened 0,  stop loss at 5 min,    0.075 SOL back  −0.025
 *   C  opened 0,  timeout at 30 min,     0.11 SOL back   +0.010
 *   D  opened 20 min, still open, marked at 0.09 SOL     −0.010 unrealised
 * Closed in the order B (−0.025), A (cumulative −0.005), C (+0.005): peak 0, trough −0.025.
 */
function book() {
  const a = closedAt(open('gp70', 'MintA'), T0 + 10 * MIN, 120_000_000);
  const b = closedAt(open('gp70', 'MintB'), T0 + 5 * MIN, 75_000_000);
  const c = closedAt(open('gp70', 'MintC'), T0 + 30 * MIN, 110_000_000);
  const d = heldAt(open('gp70', 'MintD', T0 + 20 * MIN), T0 + 21 * MIN, 90_000_000);
  return { a, b, c, d };
}

describe('strategy summary', () => {
  it('adds up hand-built positions', () => {
    const { a, b, c, d } = book();
    expect([a, b, c].map((p) => p.exit!.reason)).toEqual(['take_profit', 'stop_loss', 'timeout']);
    const s = summarizeStrategy(gp70, [a, b, c, d], EXACT);
    expect(s).toMatchObject({
      strategy: 'gp70',
      threshold: 0.7,
      positionSizeSol: 0.1,
      tradesTotal: 4,
      tradesOpen: 1,
      tradesClosed: 3,
      wins: 2,
      losses: 1,
      unpricedOpen: 0,
    });
    expect(s.winRate).toBeCloseTo(2 / 3, 12);
    expect(s.pnl.sumSol).toBeCloseTo(0.005, 12);
    expect(s.pnl.avgSol).toBeCloseTo(0.005 / 3, 12);
    expect(s.pnl.bestSol).toBeCloseTo(0.02, 12);
    expect(s.pnl.worstSol).toBeCloseTo(-0.025, 12);
    expect(s.roi).toBeCloseTo(0.005 / 0.3, 12);
    expect(s.maxDrawdownSol).toBeCloseTo(0.025, 12);
    expect(s.avgHoldS).toBe(((10 + 5 + 30) * 60) / 3);
    expect(s.realisedSol).toBeCloseTo(0.005, 12);
    expect(s.unrealisedSol).toBeCloseTo(-0.01, 12);
    // 1 − 4 × 0.1 + (0.12 + 0.075 + 0.11) = 0.905 in cash; D is worth 0.09.
    expect(s.bankroll.initialSol).toBe(1);
    expect(s.bankroll.cashSol).toBeCloseTo(0.905, 12);
    expect(s.bankroll.equitySol).toBeCloseTo(0.995, 12);
  });

  it('lists recent trades newest first with prices, reasons and slippage', () => {
    const { a, b, c, d } = book();
    const s = summarizeStrategy(gp70, [a, b, c, d], EXACT, 3);
    expect(s.recent.map((t) => [t.mint, t.state, t.exitReason])).toEqual([
      ['MintC', 'closed', 'timeout'],
      ['MintD', 'open', null],
      ['MintA', 'closed', 'take_profit'],
    ]);
    const tc = s.recent[0]!;
    expect(tc.costSol).toBe(0.1);
    expect(tc.holdS).toBe(1800);
    expect(tc.entryPriceSol).toBeCloseTo(0.1 / 3_520_918.746848, 18);
    expect(tc.entrySlippage).toBeCloseTo(98_765_431 / 30e9, 9);
    expect(tc.entryFeeSol).toBeCloseTo(0.001234569, 12);
    expect(tc.exitVenue).toBe('dex');
    expect(tc.exitPriceSol).toBeCloseTo(0.11 / 3_520_918.746848, 18);
    expect(tc.exitSlippage).toBeCloseTo(0, 9); // no impact model: only the lamport rounding
    expect(tc.pnlSol).toBeCloseTo(0.01, 12);
    expect(tc.returnPct).toBeCloseTo(0.1, 12);
    const td = s.recent[1]!;
    expect(td).toMatchObject({ closedAtMs: null, holdS: null, exitPriceSol: null, exitReason: null });
    expect(td.pnlSol).toBeCloseTo(-0.01, 12);
  });

  it('an empty strategy has nulls where an average of nothing would be', () => {
    const s = summarizeStrategy(gp70, [], EXACT);
    expect(s).toMatchObject({ tradesTotal: 0, wins: 0, losses: 0, winRate: null, roi: null, avgHoldS: null, maxDrawdownSol: 0, recent: [] });
    expect(s.pnl).toEqual({ sumSol: 0, avgSol: null, bestSol: null, worstSol: null });
    expect(s.bankroll).toEqual({ initialSol: 1, cashSol: 1, equitySol: 1 });
  });

  it('a break-even trade is a loss, not a win', () => {
    const s = summarizeStrategy(gp70, [closedAt(open(), T0 + 30 * MIN, 100_000_000)], EXACT);
    expect([s.wins, s.losses]).toEqual([0, 1]);
  });

  it('refuses positions of another strategy', () => {
    expect(() => summarizeStrategy(strategyById('gp80'), [open('gp70')], EXACT)).toThrow(RangeError);
  });
});

describe('post-mortems', () => {
  const snap = (mint: string) => ({ mint, grad_prob: 0.9 });

  it('keeps closed losing trades with loss ≥ min_loss_pct, newest close first', () => {
    const { a, b, c, d } = book();
    const e = closedAt(open('gp70', 'MintE'), T0 + 12 * MIN, 50_000_000); // −50%
    const trades = [a, b, c, d, e].map((position) => ({ position, entrySnapshot: snap(position.mint) }));
    const all = selectPostmortems(trades, { minLossPct: 0, limit: 50, requireContext: true });
    expect(all.map((t) => [t.position.mint, t.lossPct, t.pnlLamports])).toEqual([
      ['MintE', 0.5, -50_000_000],
      ['MintB', 0.25, -25_000_000],
    ]);
    // The boundary is inclusive: B lost exactly 25%.
    expect(selectPostmortems(trades, { minLossPct: 0.25, limit: 50, requireContext: true }).map((t) => t.position.mint)).toEqual(['MintE', 'MintB']);
    expect(selectPostmortems(trades, { minLossPct: 0.3, limit: 50, requireContext: true }).map((t) => t.position.mint)).toEqual(['MintE']);
    expect(selectPostmortems(trades, { minLossPct: 0, limit: 1, requireContext: true }).map((t) => t.position.mint)).toEqual(['MintE']);
    expect(all[0]!.entrySnapshot).toEqual(snap('MintE'));
  });

  it('require_context drops trades stored without their entry snapshot', () => {
    const b = closedAt(open('gp70', 'MintB'), T0 + 5 * MIN, 75_000_000);
    const trades = [{ position: b, entrySnapshot: null }];
    expect(selectPostmortems(trades, { minLossPct: 0, limit: 50, requireContext: true })).toEqual([]);
    expect(selectPostmortems(trades, { minLossPct: 0, limit: 50, requireContext: false })).toHaveLength(1);
  });

  it('breaks ties on the close time by strategy, then mint', () => {
    const x = closedAt(open('gp80', 'MintX'), T0 + 5 * MIN, 70_000_000);
    const y = closedAt(open('gp70', 'MintY'), T0 + 5 * MIN, 70_000_000);
    const z = closedAt(open('gp70', 'MintA'), T0 + 5 * MIN, 70_000_000);
    const out = selectPostmortems(
      [x, y, z].map((position) => ({ position, entrySnapshot: null })),
      { minLossPct: 0, limit: 50, requireContext: false },
    );
    expect(out.map((t) => `${t.position.strategy}/${t.position.mint}`)).toEqual(['gp70/MintA', 'gp70/MintY', 'gp80/MintX']);
  });

  it('refuses a negative or non-finite min_loss_pct and a limit below 1; above 1 selects nothing', () => {
    expect(() => selectPostmortems([], { minLossPct: -0.1, limit: 1, requireContext: true })).toThrow(RangeError);
    expect(() => selectPostmortems([], { minLossPct: Infinity, limit: 1, requireContext: true })).toThrow(RangeError);
    const { a, b } = book();
    const trades = [a, b].map((position) => ({ position, entrySnapshot: snap(position.mint) }));
    expect(selectPostmortems(trades, { minLossPct: 1.5, limit: 50, requireContext: true })).toEqual([]);
    expect(() => selectPostmortems([], { minLossPct: 0.3, limit: 0, requireContext: true })).toThrow(RangeError);
  });
});
