import { WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { signUpdate, WALLET_SIGNUP_WORKFLOW, walletSignupWorkflowId, type SignResult, type WalletSignupInput } from './wallet-signup-contract';

/** Starts holder signups and hands them their signatures; a link id names one workflow, ever. */
export type WalletSignupStarter = {
  start(input: WalletSignupInput): Promise<void>;
  /** The signature as an update; answered once the workflow has checked it and the balance. */
  sign(linkId: string, signature: string): Promise<SignResult>;
};

export function createWalletSignupStarter(client: Client, taskQueue: string): WalletSignupStarter {
  return {
    async start(input) {
      await client.workflow.start(WALLET_SIGNUP_WORKFLOW, {
        taskQueue,
        workflowId: walletSignupWorkflowId(input.linkId),
        args: [input],
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      });
    },
    sign: (linkId, signature) => client.workflow.getHandle(walletSignupWorkflowId(linkId)).executeUpdate(signUpdate, { args: [{ signature }] }),
  };
}
