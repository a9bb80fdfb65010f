import { NATIVE_COIN_PRICE_CONTRACT } from './native-coin-price-contract';
import { MARKET_CONDITIONS_CONTRACT } from './market-conditions-contract';
import type { WorkflowContract } from '../workflow-contract';

/** The market area's workflow contracts (schedules and deadlines as data), for workflows/workflow-contracts.ts. */
export const MARKET_CONTRACTS: readonly WorkflowContract[] = [NATIVE_COIN_PRICE_CONTRACT, MARKET_CONDITIONS_CONTRACT];
