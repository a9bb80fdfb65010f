import { MARKET_CONDITIONS_WORKFLOW } from '../workflows/market/market-conditions-contract';
import { ACCURACY_WORKFLOW } from '../workflows/accuracy/accuracy-contract';
import { NATIVE_COIN_PRICE_WORKFLOW } from '../workflows/market/native-coin-price-contract';
import { WATCHDOG_WORKFLOW } from '../workflows/ops/watchdog-contract';
import { HOLDER_RECHECK_WORKFLOW } from '../workflows/access/holder-recheck-contract';
import { WALLET_SIGNUP_WORKFLOW } from '../workflows/access/wallet-signup-contract';

/** How long each workflow type may stay open before the watchdog calls it stuck. */
export const WORKFLOW_DEADLINES_S: Record<string, number> = {
  [WATCHDOG_WORKFLOW]: 5 * 60,
  [NATIVE_COIN_PRICE_WORKFLOW]: 10 * 60,
  [MARKET_CONDITIONS_WORKFLOW]: 30 * 60,
  [ACCURACY_WORKFLOW]: 15 * 60,
  // The longest signup window (WALLET_SIGNUP_TTL_S ≤ 1 day) plus the 5-minute key reveal.
  [WALLET_SIGNUP_WORKFLOW]: 86_400 + 15 * 60,
  [HOLDER_RECHECK_WORKFLOW]: 2 * 3600,
};
