// The webhooks area's workflows, for the worker's bundle (workflows/index.ts). Deterministic code only.
export { deliverWebhook } from './webhook-delivery-workflow';
export { dispatchWebhooks } from './webhook-dispatch-workflow';
export { webhookRelay } from './webhook-relay-workflow';
