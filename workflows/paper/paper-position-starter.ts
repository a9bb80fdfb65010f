import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { PaperPosition } from '../../domain/paper/paper-position';
import { closeSignal, PAPER_POSITION_WORKFLOW, paperPositionWorkflowId, type PaperPositionInput } from './paper-position-contract';

export type PaperPositionStarter = {
  start(positionId: number, position: PaperPosition): Promise<void>;
  /** Delivers the pricer's exit to the position's workflow; false when it has already finished (closed before). */
  close(closed: PaperPosition): Promise<boolean>;
};

/** Starts a position's workflow; idempotent by workflow id (a position has one workflow, ever: a closed one is never restarted). */
export function createPaperPositionStarter(client: Client, taskQueue: string): PaperPositionStarter {
  return {
    async start(positionId, position) {
      const input: PaperPositionInput = { positionId, position };
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
    async close(closed) {
      try {
        await client.workflow.getHandle(paperPositionWorkflowId(closed.strategy, closed.mint)).signal(closeSignal, closed);
        return true;
      } catch (e) {
        if (e instanceof WorkflowNotFoundError) return false;
        throw e;
      }
    },
  };
}
