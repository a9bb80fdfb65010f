import { ActivityFailure, continueAsNew, proxyActivities, proxyLocalActivities, setHandler, sleep } from '@temporalio/workflow';
import type { PaperActivities } from '../../activities/paper/paper-activities';
import { applyExitDecision, evaluateExit } from '../../domain/paper/exit-rules';
import type { Quote } from '../../domain/paper/paper-position';
import { nowMs } from '../workflow-time';
import { positionQuery, type PaperPositionInput, type PaperPositionResult } from './paper-position-contract';

// A quote that does not come quickly is no quote this tick: the exit rules handle a missing price (stale_price).
// A local activity: a tick is then one workflow task and a marker in the history, not an activity task and two
// workflow tasks, which is what lets one worker hold a thousand positions ticking every few seconds (bench:paper).
const quoting = proxyLocalActivities<PaperActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '2 seconds', maximumAttempts: 2 },
});
// The close is a database write, idempotent (WHERE state = 'open'): keep trying.
const writer = proxyActivities<PaperActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * One paper position from entry to exit (workflow id `paper:<strategy>:<mint>`): every `tickMs` it prices the
 * position (curve reserves from Postgres before graduation, the DEX price after) and applies the exit rules of
 * domain/paper/exit-rules.ts; the first close is written once and ends the workflow. The position is plain JSON in
 * the workflow's state, so a worker restart resumes it where Temporal left it.
 */
export async function paperPosition(input: PaperPositionInput): Promise<PaperPositionResult> {
  let position = input.position;
  setHandler(positionQuery, () => position);
  for (let i = 0; i < input.ticksPerRun; i++) {
    await sleep(input.tickMs);
    const atMs = Math.max(nowMs(), position.lastQuote.atMs);
    let quote: Quote | null;
    try {
      quote = await quoting.quotePaperPosition({ positionId: input.positionId, mint: position.mint, atMs });
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      quote = null; // the price source is down: no quote this tick
    }
    const decision = evaluateExit(position, { atMs, quote }, input.config);
    position = applyExitDecision(position, decision);
    if (decision.action === 'close') {
      await writer.closePaperPosition({ positionId: input.positionId, position });
      return { positionId: input.positionId, position };
    }
  }
  return continueAsNew<typeof paperPosition>({ ...input, position });
}
