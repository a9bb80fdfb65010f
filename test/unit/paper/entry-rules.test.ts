import { FINAL_VTOKENS_RAW } from '../../../domain/paper/curve-fill';
import { decideEntry, strategyCash, type ScoreEvent } from '../../../domain/paper/entry-rules';
import { checkPaperConfig, DEFAULT_PAPER_CONFIG, PAPER_STRATEGIES, strategyById } from '../../../domain/paper/paper-config';
import { closedAt, ENTRY_COST, EXACT, INITIAL, MIN, open, T0 } from './paper-fixtures';

const gp70 = strategyById('gp70');
const gp90 = strategyById('gp90');
const score = (over: Partial<ScoreEvent> = {}): ScoreEvent => ({
  mint: 'MintA',
  ageS: 30,
  gradProb: 0.75,
  mayhem: false,
  atMs: T0 + 30_000,
  reserves: INITIAL,
  ...over,
});
const fresh = { alreadyEntered: false, cashLamports: 1_000_000_000 };

describe('paper entries', () => {
  it('has the three strategies of the spec with the public service’s defaults', () => {
    expect(PAPER_STRATEGIES.map((s) => [s.id, s.threshold])).toEqual([
      ['gp70', 0.7],
      ['gp80', 0.8],
      ['gp90', 0.9],
    ]);
    expect(DEFAULT_PAPER_CONFIG).toMatchObject({
      positionSizeLamports: 100_000_000,
      bankrollLamports: 1_000_000_000,
      takeProfitBps: 2_000,
      stopLossBps: 2_500,
      timeoutS: 1_800,
      staleAfterS: 300,
      curveFees: { protocolBps: 95, creatorBps: 30 },
    });
    expect(() => strategyById('gp50')).toThrow(RangeError);
  });

  it('enters on the first score that reaches the threshold, at that score’s reserves and time', () => {
    const d = decideEntry(gp70, score(), fresh, DEFAULT_PAPER_CONFIG);
    if (!d.enter) throw new Error(d.reason);
    expect(d.position).toMatchObject({ strategy: 'gp70', mint: 'MintA', openedAtMs: T0 + 30_000, exit: null });
    expect(d.position.entry).toMatchObject({ scoreAgeS: 30, gradProb: 0.75 });
    expect(d.position.entry.fill.solSpentLamports).toBe(100_000_000);
    expect(d.position.lastQuote).toEqual({ atMs: T0 + 30_000, quote: { kind: 'curve', reserves: INITIAL } });
    // The 60 s score of a mint entered at 30 s never enters again.
    expect(decideEntry(gp70, score({ ageS: 60, gradProb: 0.99 }), { ...fresh, alreadyEntered: true }, DEFAULT_PAPER_CONFIG)).toEqual({
      enter: false,
      reason: 'already_entered',
    });
  });

  it('enters at 60 s when only the 60 s score reaches the threshold', () => {
    expect(decideEntry(gp90, score({ gradProb: 0.85 }), fresh, DEFAULT_PAPER_CONFIG)).toEqual({ enter: false, reason: 'below_threshold' });
    const d = decideEntry(gp90, score({ ageS: 60, gradProb: 0.91, atMs: T0 + 60_000 }), fresh, DEFAULT_PAPER_CONFIG);
    expect(d.enter && d.position.entry.scoreAgeS).toBe(60);
  });

  it('the threshold is inclusive', () => {
    expect(decideEntry(gp70, score({ gradProb: 0.7 }), fresh, DEFAULT_PAPER_CONFIG).enter).toBe(true);
    expect(decideEntry(gp70, score({ gradProb: 0.6999 }), fresh, DEFAULT_PAPER_CONFIG)).toEqual({ enter: false, reason: 'below_threshold' });
  });

  it('never enters a mayhem mint, a score at another age, or a completed curve', () => {
    expect(decideEntry(gp70, score({ mayhem: true }), fresh, DEFAULT_PAPER_CONFIG)).toEqual({ enter: false, reason: 'mayhem' });
    expect(decideEntry(gp70, score({ ageS: 45 }), fresh, DEFAULT_PAPER_CONFIG)).toEqual({ enter: false, reason: 'not_a_scoring_age' });
    const complete = { vSolLamports: 115_005_000_000, vTokensRaw: FINAL_VTOKENS_RAW };
    expect(decideEntry(gp70, score({ reserves: complete }), fresh, DEFAULT_PAPER_CONFIG)).toEqual({ enter: false, reason: 'curve_complete' });
    expect(() => decideEntry(gp70, score({ gradProb: NaN }), fresh, DEFAULT_PAPER_CONFIG)).toThrow(RangeError);
  });

  it('needs cash of at least the position size', () => {
    expect(decideEntry(gp70, score(), { alreadyEntered: false, cashLamports: 100_000_000 }, DEFAULT_PAPER_CONFIG).enter).toBe(true);
    expect(decideEntry(gp70, score(), { alreadyEntered: false, cashLamports: 99_999_999 }, DEFAULT_PAPER_CONFIG)).toEqual({
      enter: false,
      reason: 'bankroll_too_small',
    });
  });

  it('cash falls by what positions cost and rises by what closed ones return; ten open positions use 1 SOL up', () => {
    const positions = Array.from({ length: 10 }, (_, i) => open('gp70', `Mint${i}`));
    expect(strategyCash(gp70, positions, EXACT)).toBe(1_000_000_000 - 10 * ENTRY_COST);
    expect(decideEntry(gp70, score({ mint: 'Mint10' }), { alreadyEntered: false, cashLamports: strategyCash(gp70, positions, EXACT) }, EXACT)).toEqual({
      enter: false,
      reason: 'bankroll_too_small',
    });
    positions[0] = closedAt(positions[0]!, T0 + MIN, 120_000_000);
    expect(strategyCash(gp70, positions, EXACT)).toBe(120_000_000);
    expect(() => strategyCash(gp90, positions, EXACT)).toThrow(RangeError);
  });

  it('checks its configuration', () => {
    expect(checkPaperConfig(DEFAULT_PAPER_CONFIG)).toBe(DEFAULT_PAPER_CONFIG);
    expect(() => checkPaperConfig({ ...DEFAULT_PAPER_CONFIG, positionSizeLamports: 2_000_000_000 })).toThrow(RangeError);
    expect(() => checkPaperConfig({ ...DEFAULT_PAPER_CONFIG, stopLossBps: 0 })).toThrow(RangeError);
    expect(() => checkPaperConfig({ ...DEFAULT_PAPER_CONFIG, stopLossBps: 10_000 })).toThrow(RangeError);
    expect(() => checkPaperConfig({ ...DEFAULT_PAPER_CONFIG, timeoutS: 0.5 })).toThrow(RangeError);
    expect(() => checkPaperConfig({ ...DEFAULT_PAPER_CONFIG, curveFees: { protocolBps: -1, creatorBps: 0 } })).toThrow(RangeError);
  });
});
