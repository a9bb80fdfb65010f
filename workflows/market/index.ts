// The market area's workflows, for the worker's bundle (workflows/index.ts). Deterministic code only.
export { refreshNativeCoinPrice } from './native-coin-price-workflow';
export { refreshMarketConditions } from './market-conditions-workflow';
