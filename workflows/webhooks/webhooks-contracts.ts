import type { WorkflowContract } from '../workflow-contract';
import { WEBHOOK_DELIVERY_CONTRACT } from './webhook-delivery-contract';
import { WEBHOOK_DISPATCH_CONTRACT } from './webhook-dispatch-contract';
import { WEBHOOK_RELAY_CONTRACT } from './webhook-relay-contract';

/** The webhooks area's workflow contracts, for workflows/workflow-contracts.ts. */
export const WEBHOOKS_CONTRACTS: readonly WorkflowContract[] = [WEBHOOK_DELIVERY_CONTRACT, WEBHOOK_DISPATCH_CONTRACT, WEBHOOK_RELAY_CONTRACT];
