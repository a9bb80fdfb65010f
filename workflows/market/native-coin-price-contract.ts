import { scheduledContract } from '../workflow-contract';

export const NATIVE_COIN_PRICE_WORKFLOW = 'refreshNativeCoinPrice';
export const NATIVE_COIN_PRICE_SCHEDULE_ID = 'schedule:native-coin-price';
export const NATIVE_COIN_PRICE_WORKFLOW_ID_PREFIX = 'native-coin-price';

export type PriceRefreshResult = { ok: true; usd: number } | { ok: false; error: string };

export const NATIVE_COIN_PRICE_CONTRACT = scheduledContract(NATIVE_COIN_PRICE_WORKFLOW, NATIVE_COIN_PRICE_SCHEDULE_ID, NATIVE_COIN_PRICE_WORKFLOW_ID_PREFIX, {
  everyS: (cfg) => cfg.price.refreshIntervalS,
  runTimeoutS: 240,
  deadlineS: 10 * 60,
});
