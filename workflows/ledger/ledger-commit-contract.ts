import { compactHour } from '../../domain/ledger/ledger-schedule';
import type { WorkflowContract } from '../workflow-contract';

/**
 * Contract of the commit of one track's sealed hour: the workflow id is the track and the hour, so a second start
 * of the same hour (a retried or duplicated scheduled run) can never become a second workflow doing it again.
 */
export const LEDGER_HOUR_COMMIT_WORKFLOW = 'ledgerHourCommit';
export const ledgerCommitWorkflowId = (track: string, hourStart: Date) => `ledger-commit:${track}:${compactHour(hourStart)}`;

export type LedgerHourInput = { track: string; hourStart: string };
export type LedgerCommitResult = { commitId: number; track: string; hourStart: string; leafCount: number; rootHex: string; created: boolean };

/** What a scheduled run has to do: per track the sealed hours to commit (oldest first), and commits to anchor. */
export type LedgerDue = {
  sealedUntil: string;
  tracks: { track: string; sealedNow: number; due: string[] }[];
  /** A signing key is configured: each commit is anchored. */
  anchoring: boolean;
  unanchored: { commitId: number; track: string; hourStart: string }[];
};

/** Started by the ledger tick as a child; a commit of a 200,000-row hour takes seconds, so 30 minutes is stuck. */
export const LEDGER_HOUR_COMMIT_CONTRACT: WorkflowContract = { workflowType: LEDGER_HOUR_COMMIT_WORKFLOW, deadlineS: 30 * 60 };
