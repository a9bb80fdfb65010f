import { condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { PaperActivities } from '../../activities/paper/paper-activities';
import type { PaperPosition } from '../../domain/paper/paper-position';
import { closeSignal, positionQuery, type PaperPositionInput, type PaperPositionResult } from './paper-position-contract';

// The close is a database write, idempotent (WHERE state = 'open'): keep trying.
const writer = proxyActivities<PaperActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * One paper position from entry to exit (workflow id `paper:<strategy>:<mint>`, visible in the Temporal UI). The
 * pricer (paper-pricer-workflow.ts) prices every open position in one round per tick and applies the exit rules;
 * the first exit it decides for this position arrives as the `close` signal, is written once, and ends the workflow.
 * Ticks are not this workflow's events: a thousand positions ticking every few seconds would be a thousand workflow
 * tasks per tick (bench:paper), where one pricer round costs one activity. A worker restart loses nothing: the
 * workflow and its signal are durable, and the pricer is stateless over Postgres.
 */
export async function paperPosition(input: PaperPositionInput): Promise<PaperPositionResult> {
  let position = input.position;
  let closed: PaperPosition | undefined;
  setHandler(closeSignal, (p) => {
    if (!closed && p.exit) closed = p;
  });
  setHandler(positionQuery, () => closed ?? position);
  await condition(() => closed !== undefined);
  position = closed!;
  await writer.closePaperPosition({ positionId: input.positionId, position });
  return { positionId: input.positionId, position };
}
