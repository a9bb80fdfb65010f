import type { LiveConsumer } from '../live/live-consumers';
import type { AlertEvaluator } from './alert-evaluator';

/** The alert rules on the live tick: evaluated at every refresh over every tracked mint (a wake leaves them to the refresh). */
export function alertLiveConsumer(evaluator: Pick<AlertEvaluator, 'evaluate'>): LiveConsumer {
  return {
    async onRefresh(mints, now) {
      await evaluator.evaluate(
        now,
        mints.map((m) => ({ state: m.state, mint: m.mint })),
      );
    },
  };
}
