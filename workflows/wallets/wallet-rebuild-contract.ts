import { defineQuery } from '@temporalio/workflow';
import type { WorkflowContract } from '../workflow-contract';

/** Contract of the wallet index rebuild: the only module of it that non-workflow code imports at runtime. */
export const WALLET_REBUILD_WORKFLOW = 'rebuildWalletIndex';
export const walletRebuildWorkflowId = (rebuildId: string) => `wallet-index-rebuild:${rebuildId}`;

/** A smart score version as data: its id and priors (domain/wallets/smart-score.ts). */
export type ScoreVersionInput = { id: string; priorGraduationRate: number; priorRugRate: number; priorStrength: number };

export type WalletRebuildPhase = 'preparing' | 'replaying' | 'indexing' | 'catching_up' | 'swapping' | 'ranking' | 'done';

/** Where a rebuild is: shown by the `progress` query, in the workflow's memo (the Temporal UI) and carried across continue-as-new. */
export type WalletRebuildProgress = {
  phase: WalletRebuildPhase;
  /** The score version the rebuild publishes when it swaps in. */
  scoreVersion: string | null;
  /** Resolved mints when the rebuild started (mints resolved later are caught up before the swap). */
  totalMints: number;
  mintsDone: number;
  buyers: number;
  batches: number;
  /** Last mint applied, in (created_at, mint) order: the next batch starts after it. */
  cursor: { createdAt: string; mint: string } | null;
  /** Workflow runs so far (1 + continue-as-new count). */
  runs: number;
  caughtUp: number;
  wallets: number | null;
  startedAt: string;
  finishedAt: string | null;
};

export type WalletRebuildInput = {
  rebuildId: string;
  /** The version to publish; null keeps the published one (a rebuild for a repaired label or a new contribution version). */
  scoreVersion: ScoreVersionInput | null;
  batchMints: number;
  /** Horizon of mints the live index never applied (history from before it): their creation + this. */
  defaultHorizonS: number;
  /** Continue as new after this many batches (or sooner, when Temporal suggests it). */
  batchesPerRun: number;
  /** Carried across continue-as-new; absent on the first run. */
  progress?: WalletRebuildProgress;
};

export const walletRebuildProgressQuery = defineQuery<WalletRebuildProgress>('progress');

/** Started by an operator (`npm run wallets:rebuild`); runs for as long as the history takes, so no deadline. */
export const WALLET_REBUILD_CONTRACT: WorkflowContract = { workflowType: WALLET_REBUILD_WORKFLOW };
