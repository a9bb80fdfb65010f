import { defineQuery } from '@temporalio/workflow';
import type { WorkflowContract } from '../workflow-contract';

export const DRIFT_IMPORT_WORKFLOW = 'driftImport';
export const DRIFT_FILE_IMPORT_WORKFLOW = 'driftFileImport';
export const driftImportWorkflowId = (market: string, from: string, to: string) => `perps-import:${market}:${from}:${to}`;
export const driftFileWorkflowId = (market: string, date: string) => `drift-file:${market}:${date}`;

export type DriftImportInput = {
  market: string;
  /** UTC days, yyyy-mm-dd, inclusive. */
  from: string;
  to: string;
  /** Day files imported at once. */
  concurrency: number;
  /** Read files already imported again (a changed checksum replaces their rows; the same one changes nothing). */
  refresh: boolean;
  /** Carried over continue-as-new. */
  progress?: DriftImportProgress;
  nextIndex?: number;
};

export type DriftFileInput = { market: string; date: string; refresh: boolean };
export type DriftFileOutcome = { key: string; status: 'imported' | 'unchanged' | 'skipped' | 'missing'; rows: number; sha256: string | null };

export type DriftImportProgress = {
  phase: 'files' | 'traders' | 'done';
  days: number;
  done: number;
  imported: number;
  unchanged: number;
  skipped: number;
  missing: number;
  corrupt: number;
  failed: number;
  rows: number;
  tradersRefreshed: number;
  /** The latest problems, newest last (bounded). */
  errors: { date: string; error: string }[];
};

export const driftImportProgressQuery = defineQuery<DriftImportProgress>('driftImportProgress');

/**
 * `npm run perps:import` starts one per (market, range): a child workflow per day file (drift-file:<market>:<day>),
 * a few at a time, then the traders those files touched are recomputed. Long by nature, so no deadline.
 */
export const DRIFT_IMPORT_CONTRACT: WorkflowContract = { workflowType: DRIFT_IMPORT_WORKFLOW };
/** One day file; a stuck one (its activity retrying past an hour) is worth the watchdog's attention. */
export const DRIFT_FILE_IMPORT_CONTRACT: WorkflowContract = { workflowType: DRIFT_FILE_IMPORT_WORKFLOW, deadlineS: 3 * 3600 };
