import type { WorkflowContract } from '../workflow-contract';

export const PAPER_PRICER_WORKFLOW = 'paperPricer';
/** One pricer for the whole deployment: the workflow id is the lock. */
export const PAPER_PRICER_WORKFLOW_ID = 'paper-pricer';
export type PaperPricerInput = { tickMs: number; iterationsPerRun: number };
export type PaperPricerResult = { open: number; quoted: number; closed: number; unpriced: number };

/** Started by every worker (paper-pricer-starter.ts); runs for good, so no deadline. */
export const PAPER_PRICER_CONTRACT: WorkflowContract = { workflowType: PAPER_PRICER_WORKFLOW };
