import { defineQuery } from '@temporalio/workflow';
import type { PaperConfig, StrategyId } from '../../domain/paper/paper-config';
import { positionKey, type PaperPosition } from '../../domain/paper/paper-position';
import type { WorkflowContract } from '../workflow-contract';

export const PAPER_POSITION_WORKFLOW = 'paperPosition';

/** `paper:<strategy>:<mint>`: one position per (strategy, mint), ever, so the id is the no-double-entry rule too. */
export const paperPositionWorkflowId = (strategy: StrategyId, mint: string) => positionKey(strategy, mint);

export type PaperPositionInput = {
  positionId: number;
  position: PaperPosition;
  config: PaperConfig;
  /** How often the position is priced. */
  tickMs: number;
  /** Ticks per run before continuing as new (history stays small). */
  ticksPerRun: number;
};

export type PaperPositionResult = { positionId: number; position: PaperPosition };

export const positionQuery = defineQuery<PaperPosition>('position');

/** A position lives until its timeout (default 30 min) and one stale-price limit at most; three hours is stuck. */
export const PAPER_POSITION_CONTRACT: WorkflowContract = { workflowType: PAPER_POSITION_WORKFLOW, deadlineS: 3 * 3600 };
