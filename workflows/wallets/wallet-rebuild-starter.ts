import { type Client, type WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { startOrJoin } from '../start-or-join-starter';
import { WALLET_REBUILD_WORKFLOW, walletRebuildWorkflowId, type WalletRebuildInput } from './wallet-rebuild-contract';

/**
 * Starts a rebuild of the wallet index (`wallet-index-rebuild:<rebuildId>`). Starting the same id again while it
 * runs joins it; a rebuild under another id takes the `_next` tables over and the older one stops at its next step.
 */
export function startWalletRebuild(client: Client, taskQueue: string, input: WalletRebuildInput): Promise<WorkflowHandleWithFirstExecutionRunId> {
  return startOrJoin(client, WALLET_REBUILD_WORKFLOW, { taskQueue, workflowId: walletRebuildWorkflowId(input.rebuildId), input });
}
