import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { HolderAccess } from '../../domain/access/tiers';
import type { WorkflowContract } from '../workflow-contract';

/** Contract of the holder-signup workflow: the only access workflow module other code imports at runtime. */
export const WALLET_SIGNUP_WORKFLOW = 'walletSignup';
export const walletSignupWorkflowId = (linkId: string) => `wallet-link:${linkId}`;

export type WalletSignupInput = {
  linkId: string;
  wallet: string;
  access: HolderAccess;
  message: string;
  threshold: number;
  createdAt: string;
  expiresAt: string;
  /** How long the poll shows the minted key (300 s in production; shorter in tests). */
  keyVisibleS: number;
};

export type SignOutcome = 'invalid_signature' | 'balance_unavailable' | 'fulfilled' | 'ineligible' | 'expired';
export type SignResult = { outcome: SignOutcome; detail?: string };
/** The wallet's signature over the link's message; answered once the signature and balance are checked. */
export const signUpdate = defineUpdate<SignResult, [{ signature: string }]>('sign');

export type WalletSignupState = { status: 'pending' | 'fulfilled' | 'ineligible' | 'expired'; recorded: boolean };
export const signupStateQuery = defineQuery<WalletSignupState>('state');
export type WalletSignupResult = { status: WalletSignupState['status'] };

export const WALLET_SIGNUP_CONTRACT: WorkflowContract = {
  workflowType: WALLET_SIGNUP_WORKFLOW,
  // The longest signup window (WALLET_SIGNUP_TTL_S ≤ 1 day) plus the 5-minute key reveal.
  deadlineS: 86_400 + 15 * 60,
};
