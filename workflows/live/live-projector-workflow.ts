import { condition, continueAsNew, log, patched, proxyActivities, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import type { LiveProjectorActivities } from '../../activities/live/live-projector';
import { nowMs } from '../workflow-time';
import { tradesIngestedSignal, type LiveProjectorInput } from './live-projector-contract';

const acts = proxyActivities<LiveProjectorActivities>({
  startToCloseTimeout: '20 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds', maximumAttempts: 3 },
});
/** A woken evaluation is not worth retrying for long: the next wake or the next refresh covers what it missed. */
const woken = proxyActivities<LiveProjectorActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', maximumAttempts: 2 },
});

/** Runs started before trade-driven evaluation keep sleeping between refreshes when replayed. */
export const TRADE_DRIVEN_PATCH = 'trade-driven-evaluation';
/**
 * Each wake adds about a dozen events, so a run also ends on its history length: at one wake per 200 ms this is
 * some minutes of history, far below Temporal's limits, and replaying it after a worker restart stays quick.
 */
const MAX_HISTORY_EVENTS = 10_000;

/**
 * Refreshes the live list every `intervalMs`, forever. Between refreshes, each `tradesIngested` signal (ingest
 * committed trades) runs `evaluateNewTrades` at once: a composite cross can only newly happen at a trade, so the
 * signal reaches the feed at the trade's pace rather than the refresh's. The refresh still evaluates every
 * tracked mint (threshold or smart-money moves, and any wake that was lost). It continues as new after
 * `iterationsPerRun` refreshes, or sooner when its history grows long.
 */
export async function liveProjector(input: LiveProjectorInput): Promise<void> {
  let wakes = 0;
  setHandler(tradesIngestedSignal, () => void wakes++);
  const tradeDriven = patched(TRADE_DRIVEN_PATCH);
  for (let i = 0; i < input.iterationsPerRun; i++) {
    try {
      await acts.refreshLiveSnapshot();
    } catch (err) {
      // The next refresh rebuilds from Postgres; one failed refresh only makes the list a little older.
      log.warn('live refresh failed', { error: String(err) });
    }
    if (!tradeDriven) {
      await sleep(input.intervalMs);
      continue;
    }
    // A wake that came during the refresh is kept: its trades may have committed after the refresh read.
    const until = nowMs() + input.intervalMs;
    for (let left = input.intervalMs; left > 0; left = until - nowMs()) {
      if (!(await condition(() => wakes > 0, left))) break;
      wakes = 0;
      try {
        await woken.evaluateNewTrades();
      } catch (err) {
        log.warn('woken evaluation failed', { error: String(err) });
      }
    }
    if (workflowInfo().historyLength > MAX_HISTORY_EVENTS || workflowInfo().continueAsNewSuggested) break;
  }
  await continueAsNew<typeof liveProjector>(input);
}
