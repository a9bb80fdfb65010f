import { inCompositeWindow } from '../../domain/signals/composite-score';
import type { CompositeEvaluator, EvaluatedMint } from '../../models/signals/composite-evaluator';
import type { LiveConsumer, LiveMint } from '../live/live-consumers';

const evaluated = (mints: readonly LiveMint[]): EvaluatedMint[] =>
  mints.map((m) => ({ state: m.state, mint: m.mint, smartMoneyIn: m.smartMoney.smartMoneyIn }));

/**
 * The composite signal on the live tick: every refresh evaluates every tracked mint (the threshold or smart money may
 * have moved), and each wake the mints inside the composite window that traded, since a cross can only newly happen
 * at a trade.
 */
export function compositeLiveConsumer(evaluator: Pick<CompositeEvaluator, 'evaluate' | 'evaluateCrosses'>): LiveConsumer {
  return {
    async onRefresh(mints, now) {
      const r = await evaluator.evaluate(now, evaluated(mints));
      // In the refresh's result (so in the projector's history) for operators and bench:signals: the threshold each
      // refresh left, which tells a cross made by a falling threshold from one made by a trade.
      return { composite: { at: now.getTime(), threshold: r.threshold.value, crosses: r.crosses } };
    },
    onTrades: {
      wants: (state, now) => inCompositeWindow((now.getTime() - state.row.at.getTime()) / 1000),
      async run(mints, now) {
        const r = await evaluator.evaluateCrosses(now, evaluated(mints));
        return { crosses: r.crosses, delivered: r.delivered };
      },
    },
  };
}
