import type { WorkflowContract } from '../workflow-contract';
import { BOT_SENDER_CONTRACT } from './bot-sender-contract';

/** The alerts area's workflow contracts, for workflows/workflow-contracts.ts. */
export const ALERTS_CONTRACTS: readonly WorkflowContract[] = [BOT_SENDER_CONTRACT];
