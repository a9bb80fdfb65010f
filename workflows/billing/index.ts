// The billing area's workflows, for the worker's bundle (workflows/index.ts). Deterministic code only.
export { paymentIntent } from './payment-intent-workflow';
export { paymentOutboxSweep } from './payment-outbox-workflow';
export { recordBurn } from './burn-record-workflow';
