import type { HeadlineCall } from '../../domain/accuracy/accuracy-headline';
import type { CheckpointRow, CurrentVersions, ForwardPrediction } from '../../domain/accuracy/accuracy-report';
import type { GateState } from '../../domain/accuracy/survival-gate';
import { createGateStore } from './gate-store';
import { graduatedBy } from '../mint/before-graduation';
import type { Db } from '../db-handle';
import { asDb, knexOf } from '../knex-handle';

export const ACCURACY_REPORT = 'accuracy';

/** Reads behind the accuracy page, and its cached body. */
export function createAccuracyStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /**
     * Resolved forward predictions logged since `since`: each row was logged before its outcome was resolved and
     * taken before its mint graduated (both checked, not assumed), under `labelVersion`; `rugged` is null where
     * another rug definition labelled it.
     */
    async forwardPredictions(since: Date, labelVersion: string, rugLabelVersion: string): Promise<ForwardPrediction[]> {
      const rows = await db('predictions as p')
        .join('prediction_outcomes as po', 'po.prediction_id', 'p.id')
        .join('mint_outcomes as o', 'o.mint', 'p.mint')
        .where('p.predicted_at', '>=', since)
        .whereRaw('p.predicted_at < po.resolved_at')
        .whereNotExists(graduatedBy(db, 'p'))
        .where('po.label_version', labelVersion)
        .where('o.label_version', labelVersion)
        .select(
          'p.mint',
          db.raw(`(p.features->>'vSolSol')::float8 AS v_sol_sol`),
          'p.age_bucket',
          'p.predicted_at',
          'p.grad_prob',
          'p.model_version',
          'p.rug_prob',
          'p.runner_odds',
          'p.survival_prob',
          'p.model_versions',
          'po.graduated',
          'po.peak_mult_24h',
          'o.rugged',
          'o.rug_label_version',
        );
      return rows.map((r) => ({
        mint: r.mint,
        ageBucket: r.age_bucket,
        predictedAt: r.predicted_at,
        gradProb: r.grad_prob,
        gradVersion: r.model_version,
        rugProb: r.rug_prob ?? null,
        rugVersion: r.model_versions?.rug_prob ?? null,
        runnerOdds: r.runner_odds ?? null,
        runnerVersion: r.model_versions?.runner_prob ?? null,
        survivalProb: r.survival_prob ?? null,
        graduated: r.graduated,
        rugged: r.rug_label_version === rugLabelVersion ? r.rugged : null,
        peakMult: r.peak_mult_24h,
        vSolSol: r.v_sol_sol === null ? null : Number(r.v_sol_sol),
      }));
    },

    /**
     * Calls logged since `since`: per mint its first forward prediction (lowest age bucket) at or above `minProb`,
     * logged before its outcome resolved and taken before its mint graduated, with the outcome and the runway from the call's score to graduation.
     */
    async headlineCalls(since: Date, minProb: number, labelVersion: string): Promise<HeadlineCall[]> {
      // A mint's two buckets are scored within a minute: reading from a little earlier finds its first call even when
      // that one lies just before `since` (and then the mint is left out, its call being older).
      const rows = await db
        .select('*')
        .from(
          db('predictions as p')
            .join('prediction_outcomes as po', 'po.prediction_id', 'p.id')
            .join('mint_outcomes as o', 'o.mint', 'p.mint')
            .join('mints as m', 'm.mint', 'p.mint')
            .where('p.predicted_at', '>=', new Date(since.getTime() - 300_000))
            .where('p.grad_prob', '>=', minProb)
            .whereRaw('p.predicted_at < po.resolved_at')
            .whereNotExists(graduatedBy(db, 'p'))
            .where('po.label_version', labelVersion)
            .where('o.label_version', labelVersion)
            .distinctOn('p.mint')
            .orderBy([{ column: 'p.mint' }, { column: 'p.age_bucket' }])
            .select('p.mint', 'p.predicted_at', 'po.graduated', db.raw('o.time_to_graduation_s - EXTRACT(EPOCH FROM (p.as_of - m.created_at)) AS runway_s'))
            .as('calls'),
        )
        .where('predicted_at', '>=', since);
      return rows.map((r) => ({ mint: r.mint, predictedAt: r.predicted_at, graduated: r.graduated, runwayS: r.runway_s === null ? null : Number(r.runway_s) }));
    },

    /** Post-graduation DEX checkpoints taken since `since`. */
    async checkpoints(since: Date): Promise<CheckpointRow[]> {
      const rows = await db('post_grad_checkpoints').where('observed_at', '>=', since).select('mint', 'after_s', 'held_80');
      return rows.map((r) => ({ mint: r.mint, afterS: r.after_s, held80: r.held_80 }));
    },

    /** The versions of the latest logged prediction: what is being published now. */
    async currentVersions(): Promise<CurrentVersions> {
      const r = await db('predictions').orderBy('predicted_at', 'desc').first('model_version', 'model_versions');
      return {
        grad_prob: r?.model_version ?? null,
        rug_prob: r?.model_versions?.rug_prob ?? null,
        runner_prob: r?.model_versions?.runner_prob ?? null,
        post_grad_survival: r?.model_versions?.post_grad_survival ?? null,
      };
    },

    /** The report with the gate it evaluated, in one transaction: a reader never sees one without the other. */
    async publish(body: { computed_at: string }, gate: { name: string; state: GateState }): Promise<void> {
      await db.transaction(async (trx) => {
        await createGateStore(asDb(trx)).write(gate.name, gate.state);
        await trx('accuracy_reports')
          .insert({ name: ACCURACY_REPORT, computed_at: body.computed_at, body: JSON.stringify(body) })
          .onConflict('name')
          .merge();
      });
    },

    async readReport(): Promise<Record<string, unknown> | undefined> {
      const r = await db('accuracy_reports').where({ name: ACCURACY_REPORT }).first('body');
      return r?.body;
    },
  };
}
export type AccuracyStore = ReturnType<typeof createAccuracyStore>;
