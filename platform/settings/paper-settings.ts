import { z } from 'zod';
import { DEFAULT_PAPER_CONFIG, checkPaperConfig, type PaperConfig } from '../../domain/paper/paper-config';
import { defineSettings, invalidSetting } from './settings';

const LAMPORTS_PER_SOL = 1e9;

/**
 * Paper trading (domain/paper/paper-config.ts): size, bankroll and exits of the three strategies, and how often
 * the entry loop and each position's workflow look at the market. Fees and the DEX impact model keep the domain's
 * documented defaults.
 */
export const paperSettings = defineSettings(
  {
    /** Paper trading: SOL per position (fees included) and each strategy's bankroll. */
    PAPER_POSITION_SIZE_SOL: z.coerce.number().positive().max(1000).default(0.1),
    /** Paper trading: SOL per position (fees included) and each strategy's bankroll. */
    PAPER_BANKROLL_SOL: z.coerce.number().positive().max(1_000_000).default(1),
    /** Paper exits, on the P&L the whole position would fetch after every cost. */
    PAPER_TAKE_PROFIT_PCT: z.coerce.number().positive().max(10_000).default(20),
    /** Paper exits, on the P&L the whole position would fetch after every cost. */
    PAPER_STOP_LOSS_PCT: z.coerce.number().positive().max(99.99).default(25),
    /** Paper exits, on the P&L the whole position would fetch after every cost. */
    PAPER_TIMEOUT_S: z.coerce.number().int().min(1).max(86_400).default(1800),
    /** A position with no usable price for this long closes at its last one (`stale_price`). */
    PAPER_STALE_AFTER_S: z.coerce.number().int().min(1).max(86_400).default(300),
    /** Each open position's workflow prices it this often. */
    PAPER_TICK_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
    /** The entry loop reads new 30 s / 60 s scores this often. */
    PAPER_ENTRY_POLL_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
    /** A score the entry loop first sees later than this after its moment is not entered (its price would be old). */
    PAPER_ENTRY_MAX_DELAY_S: z.coerce.number().int().min(1).max(3600).default(120),
    /**
     * The curve gives no price while the ingest's feeds have reported no event for this long (domain/paper/curve-source.ts).
     * Above the 30 s at which the ingest writes its feed stats, so a flowing tape is never taken for a stalled one.
     */
    PAPER_TAPE_MAX_LAG_S: z.coerce.number().int().min(45).max(86_400).default(90),
  },
  (e) => {
    const config: PaperConfig = {
      ...DEFAULT_PAPER_CONFIG,
      positionSizeLamports: Math.round(e.PAPER_POSITION_SIZE_SOL * LAMPORTS_PER_SOL),
      bankrollLamports: Math.round(e.PAPER_BANKROLL_SOL * LAMPORTS_PER_SOL),
      takeProfitBps: Math.round(e.PAPER_TAKE_PROFIT_PCT * 100),
      stopLossBps: Math.round(e.PAPER_STOP_LOSS_PCT * 100),
      timeoutS: e.PAPER_TIMEOUT_S,
      staleAfterS: e.PAPER_STALE_AFTER_S,
    };
    try {
      checkPaperConfig(config);
    } catch (err) {
      invalidSetting('PAPER_POSITION_SIZE_SOL', (err as Error).message);
    }
    return {
      paper: {
        config,
        tickMs: e.PAPER_TICK_MS,
        entryPollMs: e.PAPER_ENTRY_POLL_MS,
        entryMaxDelayS: e.PAPER_ENTRY_MAX_DELAY_S,
        tapeMaxLagS: e.PAPER_TAPE_MAX_LAG_S,
      },
    };
  },
);
