import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { StrategyId } from '../../domain/paper/paper-config';
import { positionKey, type PaperPosition } from '../../domain/paper/paper-position';
import type { WorkflowContract } from '../workflow-contract';

export const PAPER_POSITION_WORKFLOW = 'paperPosition';

/** `paper:<strategy>:<mint>`: one position per (strategy, mint), ever, so the id is the no-double-entry rule too. */
export const paperPositionWorkflowId = (strategy: StrategyId, mint: string) => positionKey(strategy, mint);

export type PaperPositionInput = { positionId: number; position: PaperPosition };
export type PaperPositionResult = { positionId: number; position: PaperPosition };

/** The pricer's exit decision: the position with its exit applied (domain/paper/exit-rules.ts). The first one counts. */
export const closeSignal = defineSignal<[PaperPosition]>('close');
export const positionQuery = defineQuery<PaperPosition>('position');

/** A position lives until its timeout (default 30 min) and one stale-price limit at most; three hours is stuck. */
export const PAPER_POSITION_CONTRACT: WorkflowContract = { workflowType: PAPER_POSITION_WORKFLOW, deadlineS: 3 * 3600 };
