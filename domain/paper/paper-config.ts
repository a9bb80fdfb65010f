import { checkCurveFees, checkBps, DEFAULT_CURVE_FEES, type CurveFees } from './curve-fees';
import { checkDexConfig, DEFAULT_DEX_CONFIG, type DexConfig } from './dex-fill';

/**
 * The paper-trading harness (spec section 1: three thresholds, 70%, 80% and 90% graduation probability). Each
 * strategy has its own bankroll and positions; the numbers below are the defaults the public service used,
 * and all of them are configuration (platform/config.ts maps the deployment's settings onto PaperConfig).
 *
 * - Entry: the first of the mint's 30 s and 60 s scores whose grad_prob reaches the threshold (entry-rules.ts).
 * - Size: 0.1 SOL per position, spent with fees included, from a 1 SOL bankroll per strategy.
 * - Exits (exit-rules.ts): take profit at +20%, stop loss at −25%, timeout after 30 min, and a forced close
 *   when no usable price has been seen for 5 min. Thresholds are basis points of the SOL spent, compared in
 *   integer lamports, so "+20%" is exact.
 */
export type StrategyId = 'gp70' | 'gp80' | 'gp90';
export type Strategy = { id: StrategyId; threshold: 0.7 | 0.8 | 0.9 };

export const PAPER_STRATEGIES: readonly Strategy[] = Object.freeze([
  { id: 'gp70', threshold: 0.7 },
  { id: 'gp80', threshold: 0.8 },
  { id: 'gp90', threshold: 0.9 },
]);

export function strategyById(id: string): Strategy {
  const s = PAPER_STRATEGIES.find((x) => x.id === id);
  if (!s) throw new RangeError(`unknown paper strategy ${id}; known: ${PAPER_STRATEGIES.map((x) => x.id).join(', ')}`);
  return s;
}

export type PaperConfig = {
  positionSizeLamports: number;
  bankrollLamports: number;
  takeProfitBps: number;
  stopLossBps: number;
  timeoutS: number;
  /** No usable price for this long closes the position at the last one seen. */
  staleAfterS: number;
  curveFees: CurveFees;
  dex: DexConfig;
};

export const DEFAULT_PAPER_CONFIG: PaperConfig = Object.freeze({
  positionSizeLamports: 100_000_000,
  bankrollLamports: 1_000_000_000,
  takeProfitBps: 2_000,
  stopLossBps: 2_500,
  timeoutS: 1_800,
  staleAfterS: 300,
  curveFees: DEFAULT_CURVE_FEES,
  dex: DEFAULT_DEX_CONFIG,
});

export function checkPaperConfig(c: PaperConfig): PaperConfig {
  const positiveInt = (x: number, what: string) => {
    if (!Number.isSafeInteger(x) || x <= 0) throw new RangeError(`${what} must be a positive whole number, got ${x}`);
  };
  positiveInt(c.positionSizeLamports, 'position size (lamports)');
  positiveInt(c.bankrollLamports, 'bankroll (lamports)');
  if (c.positionSizeLamports > c.bankrollLamports) throw new RangeError('the position size cannot exceed the bankroll');
  positiveInt(c.takeProfitBps, 'take profit (bps)');
  checkBps(c.stopLossBps, 'stop loss');
  if (c.stopLossBps === 0) throw new RangeError('stop loss must be above 0 bps');
  positiveInt(c.timeoutS, 'timeout (s)');
  positiveInt(c.staleAfterS, 'stale-price limit (s)');
  checkCurveFees(c.curveFees);
  checkDexConfig(c.dex);
  return c;
}
