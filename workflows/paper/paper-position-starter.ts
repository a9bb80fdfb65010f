import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { PaperConfig } from '../../domain/paper/paper-config';
import type { PaperPosition } from '../../domain/paper/paper-position';
import { PAPER_POSITION_WORKFLOW, paperPositionWorkflowId, type PaperPositionInput } from './paper-position-contract';

export type PaperPositionStarter = { start(positionId: number, position: PaperPosition, config: PaperConfig): Promise<void> };

/** Starts a position's workflow; idempotent by workflow id (a position has one workflow, ever: a closed one is never restarted). */
export function createPaperPositionStarter(client: Client, taskQueue: string, tickMs: number, ticksPerRun = 200): PaperPositionStarter {
  return {
    async start(positionId, position, config) {
      const input: PaperPositionInput = { positionId, position, config, tickMs, ticksPerRun };
      try {
        await client.workflow.start(PAPER_POSITION_WORKFLOW, {
          taskQueue,
          workflowId: paperPositionWorkflowId(position.strategy, position.mint),
          args: [input],
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        });
      } catch (e) {
        if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
      }
    },
  };
}
