import { DEFAULT_PAPER_CONFIG } from '../../../domain/paper/paper-config';
import { loadConfig } from '../../../platform/config';

describe('paper settings', () => {
  it('default to the documented strategy parameters', () => {
    const c = loadConfig({}).paper;
    expect(c.config).toEqual(DEFAULT_PAPER_CONFIG);
    expect([c.tickMs, c.entryPollMs, c.entryMaxDelayS, c.tapeMaxLagS]).toEqual([5000, 2000, 120, 90]);
  });

  it('turn percentages and SOL into the basis points and lamports the rules compare exactly', () => {
    const c = loadConfig({ PAPER_POSITION_SIZE_SOL: '0.25', PAPER_BANKROLL_SOL: '2', PAPER_TAKE_PROFIT_PCT: '35.5', PAPER_STOP_LOSS_PCT: '10' }).paper.config;
    expect([c.positionSizeLamports, c.bankrollLamports, c.takeProfitBps, c.stopLossBps]).toEqual([250_000_000, 2_000_000_000, 3550, 1000]);
  });

  it('stop the process on a position larger than the bankroll, or a stop loss of 100%', () => {
    expect(() => loadConfig({ PAPER_POSITION_SIZE_SOL: '2', PAPER_BANKROLL_SOL: '1' })).toThrow(/PAPER_POSITION_SIZE_SOL/);
    expect(() => loadConfig({ PAPER_STOP_LOSS_PCT: '100' })).toThrow(/PAPER_STOP_LOSS_PCT/);
  });
});
