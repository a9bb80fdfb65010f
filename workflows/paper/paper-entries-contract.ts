import type { WorkflowContract } from '../workflow-contract';

export const PAPER_ENTRIES_WORKFLOW = 'paperEntries';
/** One entry loop for the whole deployment: the workflow id is the lock (entries are also serialised per strategy in Postgres). */
export const PAPER_ENTRIES_WORKFLOW_ID = 'paper-entries';
export type PaperEntriesInput = { pollMs: number; iterationsPerRun: number };
export type PaperEntriesResult = { entered: number; decided: number; started: number };

/** Started by every worker (paper-entries-starter.ts); runs for good, so no deadline. */
export const PAPER_ENTRIES_CONTRACT: WorkflowContract = { workflowType: PAPER_ENTRIES_WORKFLOW };
