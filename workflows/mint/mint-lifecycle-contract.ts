import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { WorkflowContract } from '../workflow-contract';

/** Contract of the per-mint lifecycle workflow: the only mint workflow module other code imports at runtime. */
export const MINT_LIFECYCLE_WORKFLOW = 'mintLifecycle';
export const mintWorkflowId = (mint: string) => `mint:${mint}`;

/** Sent once by ingestion when the curve completes or migrates; never one signal per trade. */
export type GraduationNotice = { at: string };
export const graduatedSignal = defineSignal<[GraduationNotice]>('graduated');

/** Timings are inputs so tests can run a whole lifecycle in seconds; production uses DEFAULT_TIMING. */
export type LifecycleTiming = {
  /** When each age bucket is scored: `afterS` after creation (equal to the bucket in production). */
  scores: { bucket: number; afterS: number }[];
  /** A score due longer ago than this (worker down) is skipped rather than published late. */
  maxLatenessS: number;
  /** Outcome resolution horizon from creation. */
  resolveAfterS: number;
  /** DEX price checkpoints after graduation. */
  checkpointsS: number[];
  /** How long a checkpoint keeps retrying a down price source before it is recorded as unavailable. */
  checkpointRetry: { initialIntervalS: number; maximumAttempts: number };
};
export const DEFAULT_TIMING: LifecycleTiming = {
  scores: [
    { bucket: 30, afterS: 30 },
    { bucket: 60, afterS: 60 },
  ],
  maxLatenessS: 30,
  resolveAfterS: 24 * 3600,
  checkpointsS: [300, 900, 1800],
  checkpointRetry: { initialIntervalS: 2, maximumAttempts: 5 },
};

export type MintLifecycleInput = { mint: string; createdAt: string; timing: LifecycleTiming };

export type ScoreStep = {
  bucket: number;
  status: 'pending' | 'scored' | 'skipped_late' | 'skipped';
  gradProb: number | null;
  predictionId: number | null;
  /** Why a `skipped` step logged no prediction: `graduated` (the curve had completed by then) or `model_warming`. */
  reason?: 'graduated' | 'model_warming';
};
export type LifecycleState = {
  phase: 'scoring' | 'awaiting_graduation' | 'post_graduation' | 'awaiting_resolution' | 'resolved';
  scores: ScoreStep[];
  graduatedAt: string | null;
  checkpoints: { afterS: number; heldAt80: boolean | null; error: string | null }[];
  outcome: { graduated: boolean; peakMult24h: number | null; rugged: boolean } | null;
};
export const stateQuery = defineQuery<LifecycleState>('state');

/**
 * The resolution step the lifecycle asks of the wallet index, declared here so the lifecycle names no wallets code:
 * the wallets area implements it (activities/wallets/wallet-index-activities.ts) and registers it with the worker.
 */
export type WalletContributionStep = {
  applyWalletContributions(input: { mint: string; horizonAt: string }): Promise<{ buyers: number; walletsChanged: number; walletsAdded: number }>;
};

/** Started by ingestion (mint-lifecycle-starter.ts); open for a day by design, so no deadline. */
export const MINT_LIFECYCLE_CONTRACT: WorkflowContract = { workflowType: MINT_LIFECYCLE_WORKFLOW };
