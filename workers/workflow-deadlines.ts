import { ACCURACY_WORKFLOW } from '../workflows/accuracy/accuracy-contract';
import { NATIVE_COIN_PRICE_WORKFLOW } from '../workflows/market/native-coin-price-contract';
import { WATCHDOG_WORKFLOW } from '../workflows/ops/watchdog-contract';

/** How long each workflow type may stay open before the watchdog calls it stuck. */
export const WORKFLOW_DEADLINES_S: Record<string, number> = {
  [WATCHDOG_WORKFLOW]: 5 * 60,
  [NATIVE_COIN_PRICE_WORKFLOW]: 10 * 60,
  [ACCURACY_WORKFLOW]: 15 * 60,
};
