// Every workflow the worker registers. Workflow code is bundled from here and must stay deterministic.
export { watchdogTick } from './ops/watchdog-workflow';
export { refreshNativeCoinPrice } from './market/native-coin-price-workflow';
export { mintLifecycle } from './mint/mint-lifecycle-workflow';
export { liveProjector } from './mint/live-projector-workflow';
export { paymentIntent } from './billing/payment-intent-workflow';
export { paymentOutboxSweep } from './billing/payment-outbox-workflow';
