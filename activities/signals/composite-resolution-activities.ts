import type { MintReadStore } from '../../db/mint/mint-read-store';
import type { OutcomeStore } from '../../db/mint/outcome-store';
import type { CompositePredictionStore } from '../../db/signals/composite-prediction-store';
import { SUSTAIN_HORIZON_S } from '../../domain/launch/outcome-labels';
import { resolvableAtMs, resolveComposite, resolvesAtMs } from '../../domain/signals/resolution';
import type { CompositeResolutionResult } from '../../workflows/signals/composite-resolution-contract';

/** Rows resolved per run; a backlog is worked off over the next runs. */
const ROWS_PER_RUN = 500;
/**
 * How long past its resolvable moment a graduate waits for its 30 min DEX checkpoint (the lifecycle records it,
 * retrying a source that is down and then recording it as unavailable). Past this the row resolves with what is
 * recorded: did_sustain_30m stays null unless an earlier checkpoint settled it.
 */
export const CHECKPOINT_GRACE_S = 1800;

export type CompositeResolutionDeps = {
  compositePredictionStore: CompositePredictionStore;
  mintReadStore: Pick<MintReadStore, 'getMint' | 'tradesUntil'>;
  outcomeStore: Pick<OutcomeStore, 'checkpoints'>;
  now: () => Date;
};

export function createCompositeResolutionActivities(d: CompositeResolutionDeps) {
  return {
    async resolveDueCompositePredictions(): Promise<CompositeResolutionResult> {
      const now = d.now();
      const due = await d.compositePredictionStore.dueForResolution(now, ROWS_PER_RUN);
      let resolved = 0;
      for (const row of due) {
        const mint = await d.mintReadStore.getMint(row.mint);
        if (!mint) continue;
        const crossedAtMs = row.crossedAt.getTime();
        const horizonMs = resolvesAtMs(crossedAtMs);
        const graduatedAtMs = mint.graduatedAt ? mint.graduatedAt.getTime() : null;
        const checkpoints = await d.outcomeStore.checkpoints(row.mint);
        const gradInside = graduatedAtMs !== null && graduatedAtMs <= horizonMs;
        const sustainRecorded = checkpoints.some((c) => c.afterS >= SUSTAIN_HORIZON_S);
        if (gradInside && !sustainRecorded && now.getTime() < resolvableAtMs(crossedAtMs, graduatedAtMs) + CHECKPOINT_GRACE_S * 1000) continue;
        const trades = await d.mintReadStore.tradesUntil(row.mint, new Date(horizonMs));
        const outcome = resolveComposite({ crossedAtMs, priceAtCrossSol: row.priceAtCrossSol, trades, graduatedAtMs, checkpoints }, now.getTime());
        if (outcome && (await d.compositePredictionStore.resolve(row.id, outcome, now))) resolved++;
      }
      return { due: due.length, resolved, waiting: due.length - resolved };
    },
  };
}
export type CompositeResolutionActivities = ReturnType<typeof createCompositeResolutionActivities>;
