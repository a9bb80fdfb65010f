import { FINAL_VTOKENS_RAW } from '../../../domain/paper/curve-fill';
import { applyExitDecision, evaluateExit, type ExitDecision } from '../../../domain/paper/exit-rules';
import { DEFAULT_PAPER_CONFIG } from '../../../domain/paper/paper-config';
import { pnlOf, realisedPnl, unrealisedPnl } from '../../../domain/paper/paper-position';
import { dex, ENTRY_COST, ENTRY_TOKENS, EXACT, INITIAL, MIN, open, T0 } from './paper-fixtures';

const close = (d: ExitDecision) => {
  if (d.action !== 'close') throw new Error(`expected a close, got a hold`);
  return d;
};

describe('paper exits', () => {
  it('the fixture entry spends exactly 0.1 SOL', () => {
    const p = open();
    expect(p.entry.fill.solSpentLamports).toBe(ENTRY_COST);
    expect(p.entry.fill.tokensRaw).toBe(ENTRY_TOKENS);
  });

  it('takes profit at exactly +20% after costs, not one lamport before', () => {
    const p = open();
    expect(evaluateExit(p, { atMs: T0 + MIN, quote: dex(119_999_999) }, EXACT).action).toBe('hold');
    const d = close(evaluateExit(p, { atMs: T0 + MIN, quote: dex(120_000_000) }, EXACT));
    expect(d.reason).toBe('take_profit');
    expect(d.pnl).toEqual({ pnlLamports: 20_000_000, pnlSol: 0.02, returnPct: 0.2 });
    expect(d.fill.venue).toBe('dex');
    expect(d.quoteAtMs).toBe(T0 + MIN);
  });

  it('stops the loss at exactly −25%, not one lamport before', () => {
    const p = open();
    expect(evaluateExit(p, { atMs: T0 + MIN, quote: dex(75_000_001) }, EXACT).action).toBe('hold');
    const d = close(evaluateExit(p, { atMs: T0 + MIN, quote: dex(75_000_000) }, EXACT));
    expect(d.reason).toBe('stop_loss');
    expect(d.pnl).toEqual({ pnlLamports: -25_000_000, pnlSol: -0.025, returnPct: -0.25 });
  });

  it('times out at exactly 30 minutes, at that tick’s price', () => {
    const p = open();
    expect(evaluateExit(p, { atMs: T0 + 30 * MIN - 1, quote: dex(105_000_000) }, EXACT).action).toBe('hold');
    const d = close(evaluateExit(p, { atMs: T0 + 30 * MIN, quote: dex(105_000_000) }, EXACT));
    expect(d.reason).toBe('timeout');
    expect(d.pnl.pnlLamports).toBe(5_000_000);
  });

  it('a price limit reached at the timeout is reported as the price limit', () => {
    const d = close(evaluateExit(open(), { atMs: T0 + 30 * MIN, quote: dex(130_000_000) }, EXACT));
    expect(d.reason).toBe('take_profit');
  });

  it('closes at the last price seen once none has come for exactly 5 minutes', () => {
    let p = open();
    p = applyExitDecision(p, evaluateExit(p, { atMs: T0 + MIN, quote: dex(110_000_000) }, EXACT));
    expect(p.lastQuote.atMs).toBe(T0 + MIN);
    const held = evaluateExit(p, { atMs: T0 + 6 * MIN - 1, quote: null }, EXACT);
    expect(held.action).toBe('hold');
    expect(held.action === 'hold' && held.mark?.pnlLamports).toBe(10_000_000);
    const d = close(evaluateExit(p, { atMs: T0 + 6 * MIN, quote: null }, EXACT));
    expect(d).toMatchObject({ reason: 'stale_price', atMs: T0 + 6 * MIN, quoteAtMs: T0 + MIN });
    expect(d.pnl.pnlLamports).toBe(10_000_000);
  });

  it('without a fresh price at the timeout: timeout at the last price while it is recent, stale_price when it is not', () => {
    let p = open();
    p = applyExitDecision(p, evaluateExit(p, { atMs: T0 + 28 * MIN, quote: dex(90_000_000) }, EXACT));
    expect(close(evaluateExit(p, { atMs: T0 + 30 * MIN, quote: null }, EXACT))).toMatchObject({ reason: 'timeout', quoteAtMs: T0 + 28 * MIN });
    p = open();
    p = applyExitDecision(p, evaluateExit(p, { atMs: T0 + 24 * MIN, quote: dex(90_000_000) }, EXACT));
    expect(close(evaluateExit(p, { atMs: T0 + 30 * MIN, quote: null }, EXACT))).toMatchObject({ reason: 'stale_price', quoteAtMs: T0 + 24 * MIN });
  });

  it('counts staleness from the entry when no tick ever brought a price', () => {
    const p = open();
    expect(evaluateExit(p, { atMs: T0 + 5 * MIN - 1, quote: null }, EXACT).action).toBe('hold');
    const d = close(evaluateExit(p, { atMs: T0 + 5 * MIN, quote: null }, EXACT));
    // Priced on the entry's own reserves: the round trip costs fees both ways and the buy's impact.
    expect(d).toMatchObject({ reason: 'stale_price', quoteAtMs: T0 });
    expect(d.fill.venue).toBe('curve');
    expect(d.pnl.pnlLamports).toBe(96_892_883 - ENTRY_COST);
  });

  it('across graduation: a completed curve prices nothing, the DEX price takes over', () => {
    let p = open('gp70', 'MintA', T0, DEFAULT_PAPER_CONFIG);
    const complete = { vSolLamports: 115_005_000_000, vTokensRaw: FINAL_VTOKENS_RAW };
    const onCurve = { vSolLamports: 100_000_000_000, vTokensRaw: FINAL_VTOKENS_RAW + 40_000_000_000_000 };
    // The curve at about 11× the entry price: take profit, priced on the curve with its fee.
    const tp = close(evaluateExit(p, { atMs: T0 + MIN, quote: { kind: 'curve', reserves: onCurve } }, DEFAULT_PAPER_CONFIG));
    expect(tp).toMatchObject({ reason: 'take_profit' });
    expect(tp.fill.venue).toBe('curve');
    // The completed curve is no quote: the position holds on its entry quote, then sells on the DEX.
    const h = evaluateExit(p, { atMs: T0 + MIN, quote: { kind: 'curve', reserves: complete } }, DEFAULT_PAPER_CONFIG);
    expect(h.action).toBe('hold');
    p = applyExitDecision(p, h);
    expect(p.lastQuote.atMs).toBe(T0);
    const d = close(evaluateExit(p, { atMs: T0 + 2 * MIN, quote: { kind: 'dex', priceSol: 1e-7 } }, DEFAULT_PAPER_CONFIG));
    expect(d.reason).toBe('take_profit');
    expect(d.fill.venue).toBe('dex');
    expect(d.fill.slippage).toBeGreaterThan(0);
    expect(d.fill.feeLamports).toBeGreaterThan(0);
  });

  it('marks an open position honestly: at the entry reserves it is down by the fees both ways and the impact', () => {
    const p = open('gp70', 'MintA', T0, DEFAULT_PAPER_CONFIG);
    const d = evaluateExit(p, { atMs: T0 + 1_000, quote: { kind: 'curve', reserves: INITIAL } }, DEFAULT_PAPER_CONFIG);
    if (d.action !== 'hold') throw new Error('expected a hold');
    // Fee in and out (1.25% each) and the curve's impact both ways (0.33% each): 96,892,883 back for 0.1 SOL.
    expect(d.mark!.pnlLamports).toBe(96_892_883 - ENTRY_COST);
    expect(unrealisedPnl(p, DEFAULT_PAPER_CONFIG)).toEqual(d.mark);
  });

  it('a hold keeps the newest usable quote; a close records the exit and the realised P&L', () => {
    const p = open();
    const held = applyExitDecision(p, evaluateExit(p, { atMs: T0 + MIN, quote: dex(101_000_000) }, EXACT));
    expect(held.exit).toBeNull();
    expect(held.lastQuote).toEqual({ atMs: T0 + MIN, quote: dex(101_000_000) });
    expect(realisedPnl(held)).toBeNull();
    const closed = applyExitDecision(held, evaluateExit(held, { atMs: T0 + 2 * MIN, quote: dex(60_000_000) }, EXACT));
    expect(closed.exit).toMatchObject({ atMs: T0 + 2 * MIN, reason: 'stop_loss', quoteAtMs: T0 + 2 * MIN });
    expect(realisedPnl(closed)).toEqual({ pnlLamports: -40_000_000, pnlSol: -0.04, returnPct: -0.4 });
    expect(unrealisedPnl(closed, EXACT)).toBeNull();
    expect(() => evaluateExit(closed, { atMs: T0 + 3 * MIN, quote: null }, EXACT)).toThrow(RangeError);
  });

  it('refuses ticks that go back in time', () => {
    const p = applyExitDecision(open(), evaluateExit(open(), { atMs: T0 + MIN, quote: dex(101_000_000) }, EXACT));
    expect(() => evaluateExit(p, { atMs: T0 + MIN - 1, quote: null }, EXACT)).toThrow(RangeError);
  });

  it('P&L arithmetic: lamports exact, SOL and return derived from them', () => {
    expect(pnlOf(100_000_000, 123_456_789)).toEqual({ pnlLamports: 23_456_789, pnlSol: 0.023456789, returnPct: 0.23456789 });
    expect(pnlOf(99_999_999, 0)).toEqual({ pnlLamports: -99_999_999, pnlSol: -0.099999999, returnPct: -1 });
    expect(() => pnlOf(0, 1)).toThrow(RangeError);
  });
});
