import type { BurnKind } from '../../domain/billing/burn-kind';

/** Contract of the burn-recording workflow: one per burn transaction, started by `npm run burn:record`. */
export const BURN_RECORD_WORKFLOW = 'recordBurn';
export const burnRecordWorkflowId = (signature: string) => `burn:${signature}`;

export type BurnRecordInput = { signature: string; kind: BurnKind; settles: number[] };
export type BurnRecordResult = { id: number; inserted: boolean; amountTokens: number };
