import { ActivityFailure, condition, patched, proxyActivities, setHandler } from '@temporalio/workflow';
import type { MintActivities } from '../../activities/mint/mint-activities';
import {
  graduatedSignal,
  stateQuery,
  type GraduationNotice,
  type LifecycleState,
  type MintLifecycleInput,
  type WalletContributionStep,
} from './mint-lifecycle-contract';
import { nowMs, sleepUntil } from '../workflow-time';

// Scoring must land within a second of its due time: short timeouts, fast retries.
const scoring = proxyActivities<MintActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds', maximumAttempts: 6 },
});
// Database writes: keep trying; they are idempotent.
const writer = proxyActivities<MintActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});
// The wallet index's update is idempotent by (wallet, mint) too; its own activity, so a failure there never redoes the outcome.
const walletIndex = proxyActivities<WalletContributionStep>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * One non-mayhem mint from creation to its 24 h resolution: score at 30 s and 60 s, wait for graduation (one
 * signal from ingestion) or the horizon, take DEX price checkpoints after graduation, then resolve the
 * versioned outcome labels and apply the mint to its buyers' wallet records. Workflow id `mint:<address>`; timers are durable, so restarts lose nothing.
 */
export async function mintLifecycle(input: MintLifecycleInput): Promise<LifecycleState> {
  const { mint, timing } = input;
  // A DEX price source may be down for a while; after these attempts the checkpoint is recorded as unavailable.
  const pricing = proxyActivities<MintActivities>({
    startToCloseTimeout: '15 seconds',
    retry: {
      initialInterval: timing.checkpointRetry.initialIntervalS * 1000,
      backoffCoefficient: 2,
      maximumInterval: '30 seconds',
      maximumAttempts: timing.checkpointRetry.maximumAttempts,
    },
  });
  const createdMs = Date.parse(input.createdAt);
  let graduation: GraduationNotice | undefined;
  const state: LifecycleState = {
    phase: 'scoring',
    scores: timing.scores.map((s) => ({ bucket: s.bucket, status: 'pending', gradProb: null, predictionId: null })),
    graduatedAt: null,
    checkpoints: [],
    outcome: null,
  };
  setHandler(graduatedSignal, (g) => {
    if (!graduation) {
      graduation = g;
      state.graduatedAt = g.at;
    }
  });
  setHandler(stateQuery, () => state);

  for (const [i, step] of state.scores.entries()) {
    const dueMs = createdMs + timing.scores[i]!.afterS * 1000;
    await sleepUntil(dueMs);
    if (nowMs() - dueMs > timing.maxLatenessS * 1000) {
      step.status = 'skipped_late';
      continue;
    }
    const r = await scoring.scoreMint({ mint, bucket: step.bucket, asOf: new Date(dueMs).toISOString() });
    // The database refused the row: its hour is already sealed by the ledger, so this score is too late to log.
    if ('refused' in r) {
      step.status = 'skipped_late';
      continue;
    }
    // No prediction for this moment: the curve had completed by then, or the model was still warming.
    if ('skipped' in r) {
      Object.assign(step, { status: 'skipped', reason: r.skipped });
      continue;
    }
    Object.assign(step, { status: 'scored', gradProb: r.gradProb, predictionId: r.predictionId });
  }

  const horizonMs = createdMs + timing.resolveAfterS * 1000;
  state.phase = 'awaiting_graduation';
  const graduated = await condition(() => graduation !== undefined, Math.max(1, horizonMs - nowMs()));
  if (graduated && graduation) {
    state.phase = 'post_graduation';
    const gradMs = Date.parse(graduation.at);
    for (const afterS of timing.checkpointsS) {
      await sleepUntil(gradMs + afterS * 1000);
      try {
        const r = await pricing.recordPostGradCheckpoint({ mint, afterS, graduatedAt: graduation.at });
        state.checkpoints.push({ afterS, heldAt80: r.heldAt80, error: null });
      } catch (err) {
        if (!(err instanceof ActivityFailure)) throw err;
        const error = err.cause?.message ?? err.message;
        await writer.recordCheckpointUnavailable({ mint, afterS, error });
        state.checkpoints.push({ afterS, heldAt80: null, error });
      }
    }
  }

  state.phase = 'awaiting_resolution';
  await sleepUntil(horizonMs);
  state.outcome = await writer.resolveMint({ mint, horizonAt: new Date(horizonMs).toISOString() });
  // Lifecycles that resolved before the wallet index existed replay without this step.
  if (patched('wallet-index')) await walletIndex.applyWalletContributions({ mint, horizonAt: new Date(horizonMs).toISOString() });
  state.phase = 'resolved';
  return state;
}
