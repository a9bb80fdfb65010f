import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { PERPS_ENTRY_JUDGING_WORKFLOW, perpsEntryWorkflowId, type JudgingHorizon, type PerpsEntryJudgingInput } from './perps-entry-judging-contract';

export type EntryJudgingStarter = { start(entryId: number, detectedAt: Date, horizons: JudgingHorizon[]): Promise<void> };

/** Starts an entry's judging once, ever: the id is the entry's, a finished one is never started again. */
export function createEntryJudgingStarter(client: Client, taskQueue: string): EntryJudgingStarter {
  return {
    async start(entryId, detectedAt, horizons) {
      const input: PerpsEntryJudgingInput = { entryId, detectedAt: detectedAt.toISOString(), horizons };
      try {
        await client.workflow.start(PERPS_ENTRY_JUDGING_WORKFLOW, {
          taskQueue,
          workflowId: perpsEntryWorkflowId(entryId),
          args: [input],
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        });
      } catch (e) {
        if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
      }
    },
  };
}
