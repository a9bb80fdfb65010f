import type { ResolvedLaunch } from '../../domain/scoring/launch-histories';
import { recomputeCreator } from '../mint/creator-store';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/** Rows per INSERT. */
const BATCH = 500;

/**
 * The resolved outcomes of backfilled mints, written as the mint lifecycle writes its own (`mint_outcomes`, then each
 * creator's record recomputed from resolved facts), so the wallet index, its rebuild and the creator records see
 * history as they see the deployment's own resolutions. No `prediction_outcomes`: history was never predicted, so no
 * forward accuracy figure can include it. Idempotent per mint (a first outcome is kept, as the lifecycle keeps it).
 */
export function createBackfillOutcomeStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async record(launches: readonly ResolvedLaunch[], now: Date): Promise<void> {
      if (!launches.length) return;
      const rows = launches.map((l) => ({
        mint: l.mint,
        label_version: l.outcome.labelVersion,
        graduated: l.outcome.graduated,
        time_to_graduation_s: l.outcome.timeToGraduationS,
        peak_price_sol_24h: l.outcome.peakPriceSol,
        rugged: l.outcome.rugged,
        rug_label_version: l.outcome.rugLabelVersion,
        peak_mult_from_launch: l.outcome.peakMultFromLaunch,
        sustained_30m: l.outcome.sustained30m,
        resolved_at: l.resolvedAt,
      }));
      await db.transaction(async (trx) => {
        for (let i = 0; i < rows.length; i += BATCH)
          await trx('mint_outcomes')
            .insert(rows.slice(i, i + BATCH))
            .onConflict('mint')
            .ignore();
        const creators: { creator: string }[] = await trx('mints')
          .whereIn(
            'mint',
            launches.map((l) => l.mint),
          )
          .distinct('creator')
          .orderBy('creator');
        const { labelVersion, rugLabelVersion } = launches[0]!.outcome;
        for (const c of creators) await recomputeCreator(trx, c.creator, labelVersion, rugLabelVersion, now);
      });
    },
  };
}
export type BackfillOutcomeStore = ReturnType<typeof createBackfillOutcomeStore>;
