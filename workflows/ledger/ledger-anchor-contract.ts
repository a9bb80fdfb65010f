import { compactHour } from '../../domain/ledger/ledger-schedule';
import type { WorkflowContract } from '../workflow-contract';

/** Contract of the on-chain anchor of one commit's root: one workflow per commit, retrying until the memo lands. */
export const LEDGER_ANCHOR_WORKFLOW = 'ledgerAnchor';
export const ledgerAnchorWorkflowId = (track: string, hourStart: Date) => `ledger-anchor:${track}:${compactHour(hourStart)}`;

export type LedgerAnchorInput = { commitId: number };
export type LedgerAnchorResult = { commitId: number; signature: string; slot: number; memo: string };

/** A node down for a day is worth an alert (the watchdog counts runs open past this), never a lost anchor. */
export const LEDGER_ANCHOR_CONTRACT: WorkflowContract = { workflowType: LEDGER_ANCHOR_WORKFLOW, deadlineS: 24 * 3600 };
