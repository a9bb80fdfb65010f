import { WorkflowIdConflictPolicy, type Client, type WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { WALLET_REBUILD_WORKFLOW, walletRebuildWorkflowId, type WalletRebuildInput } from './wallet-rebuild-contract';

/**
 * Starts a rebuild of the wallet index (`wallet-index-rebuild:<rebuildId>`). Starting the same id again while it
 * runs joins it; a rebuild under another id takes the `_next` tables over and the older one stops at its next step.
 */
export function startWalletRebuild(client: Client, taskQueue: string, input: WalletRebuildInput): Promise<WorkflowHandleWithFirstExecutionRunId> {
  return client.workflow.start(WALLET_REBUILD_WORKFLOW, {
    workflowId: walletRebuildWorkflowId(input.rebuildId),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
  });
}
