import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { MINT_LIFECYCLE_WORKFLOW, graduatedSignal, mintWorkflowId, type LifecycleTiming, type MintLifecycleInput } from './mint-lifecycle-contract';

/** Starts mint lifecycle workflows and delivers graduation signals; both are idempotent by workflow id. */
export type MintLifecycleStarter = {
  start(mint: string, createdAt: Date): Promise<void>;
  signalGraduated(mint: string, at: Date): Promise<void>;
};

export function createMintLifecycleStarter(client: Client, taskQueue: string, timing: LifecycleTiming): MintLifecycleStarter {
  return {
    async start(mint, createdAt) {
      const input: MintLifecycleInput = { mint, createdAt: createdAt.toISOString(), timing };
      try {
        await client.workflow.start(MINT_LIFECYCLE_WORKFLOW, {
          taskQueue,
          workflowId: mintWorkflowId(mint),
          args: [input],
          // A mint has one lifecycle, ever: a finished one is never started again.
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
          // Generous bound: resolution at 24 h plus post-graduation checkpoints and retries.
          workflowExecutionTimeout: (timing.resolveAfterS + 6 * 3600) * 1000,
        });
      } catch (e) {
        if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
      }
    },
    async signalGraduated(mint, at) {
      try {
        await client.workflow.getHandle(mintWorkflowId(mint)).signal(graduatedSignal, { at: at.toISOString() });
      } catch (e) {
        // Mayhem mints have no lifecycle, and a finished lifecycle needs no signal.
        if (!(e instanceof WorkflowNotFoundError)) throw e;
      }
    },
  };
}
