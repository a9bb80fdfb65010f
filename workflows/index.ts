// Every workflow the worker registers. Workflow code is bundled from here and must stay deterministic.
export { watchdogTick } from './ops/watchdog-workflow';
export { refreshNativeCoinPrice } from './market/native-coin-price-workflow';
export { refreshMarketConditions } from './market/market-conditions-workflow';
export { mintLifecycle } from './mint/mint-lifecycle-workflow';
export { liveProjector } from './mint/live-projector-workflow';
export { recomputeAccuracy } from './accuracy/accuracy-workflow';
export { walletSignup } from './access/wallet-signup-workflow';
export { recheckHolderBalances } from './access/holder-recheck-workflow';
export { paymentIntent } from './billing/payment-intent-workflow';
export { paymentOutboxSweep } from './billing/payment-outbox-workflow';
export { recordBurn } from './billing/burn-record-workflow';
