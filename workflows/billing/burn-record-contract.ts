import type { BurnKind } from '../../domain/billing/burn-kind';
import type { WorkflowContract } from '../workflow-contract';

/** Contract of the burn-recording workflow: one per burn transaction, started by `npm run burn:record`. */
export const BURN_RECORD_WORKFLOW = 'recordBurn';
export const burnRecordWorkflowId = (signature: string) => `burn:${signature}`;

export type BurnRecordInput = { signature: string; kind: BurnKind; settles: number[] };
export type BurnRecordResult = { id: number; inserted: boolean; amountTokens: number };

/** Started by `npm run burn:record` (burn-record-starter.ts); retries for minutes at most, so no deadline. */
export const BURN_RECORD_CONTRACT: WorkflowContract = { workflowType: BURN_RECORD_WORKFLOW };
