import type { Tier } from '../../domain/signals/tier-rules';
import type { VerdictEvaluationJson } from '../../domain/verdict/evaluate-verdict';
import type { Preregistration } from '../../domain/verdict/preregistration';
import type { VerdictCross } from '../../domain/verdict/tier-figures';
import type { BenchmarkHour } from '../../domain/verdict/verdict-window';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type StoredVerdict = {
  id: number;
  preregistrationId: string;
  preregistrationSha256: string;
  branch: VerdictEvaluationJson['branch'];
  verdict: VerdictEvaluationJson['verdict'];
  windowStart: Date;
  windowEnd: Date;
  evaluation: VerdictEvaluationJson;
  evaluationCanonical: string;
  evaluationSha256: string;
  lockedAt: Date;
};

/** The evaluator's latest look before the lock, as served by /api/verdict (replaced every run). */
export type VerdictStatus = { evaluatedAt: Date; status: Record<string, unknown> };

const verdict = (r: Record<string, any>): StoredVerdict => ({
  id: Number(r.id),
  preregistrationId: r.preregistration_id,
  preregistrationSha256: r.preregistration_sha256,
  branch: r.branch,
  verdict: r.verdict,
  windowStart: r.window_start,
  windowEnd: r.window_end,
  evaluation: r.evaluation,
  evaluationCanonical: r.evaluation_canonical,
  evaluationSha256: r.evaluation_sha256,
  lockedAt: r.locked_at,
});

/** The verdict's inputs (composite crosses, the 60 s benchmark) and its one immutable row per registration. */
export function createVerdictStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /** Tiered crosses made in [T0, deadline), with their outcome once resolved. */
    async crosses(p: Preregistration): Promise<VerdictCross[]> {
      const rows = await db('composite_predictions')
        .whereNotNull('tier')
        .where('crossed_at', '>=', new Date(p.t0Ms))
        .where('crossed_at', '<', new Date(p.deadlineMs))
        .select(
          'mint',
          'crossed_at',
          'tier',
          'composite_version',
          'cross_rules_version',
          'tier_rules_version',
          'label_version',
          'peak_mult_24h',
          'did_graduate',
          'resolved_at',
        );
      return rows.map((r) => ({
        mint: r.mint,
        crossedAtMs: (r.crossed_at as Date).getTime(),
        tier: r.tier as Tier,
        compositeVersion: r.composite_version,
        crossRulesVersion: r.cross_rules_version,
        tierRulesVersion: r.tier_rules_version,
        outcome: r.resolved_at === null ? null : { labelVersion: r.label_version, peakMult24h: r.peak_mult_24h, didGraduate: r.did_graduate },
      }));
    },

    /** Per UTC hour of [T0, deadline): non-mayhem mints scored at 60 s, those resolved under the label, and their 5× hits. */
    async benchmarkHours(p: Preregistration): Promise<BenchmarkHour[]> {
      const { rows } = await db.raw<{ rows: { hour: Date; n: number; resolved: number; hits: number }[] }>(
        `SELECT date_trunc('hour', p.as_of, 'UTC') AS hour, count(*)::int AS n,
                count(po.prediction_id) FILTER (WHERE po.label_version = :label)::int AS resolved,
                count(po.prediction_id) FILTER (WHERE po.label_version = :label AND po.peak_mult_24h >= :multiple)::int AS hits
           FROM predictions p
           JOIN mints m ON m.mint = p.mint AND NOT m.mayhem
           LEFT JOIN prediction_outcomes po ON po.prediction_id = p.id
          WHERE p.age_bucket = 60 AND p.as_of >= :t0 AND p.as_of < :deadline
          GROUP BY 1 ORDER BY 1`,
        { label: p.labelVersion, multiple: p.outcomeMultiple, t0: new Date(p.t0Ms), deadline: new Date(p.deadlineMs) },
      );
      return rows.map((r) => ({ hourStartMs: r.hour.getTime(), n: r.n, resolved: r.resolved, hits: r.hits }));
    },

    async locked(preregistrationId: string): Promise<StoredVerdict | null> {
      const r = await db('verdicts').where({ preregistration_id: preregistrationId }).first();
      return r ? verdict(r) : null;
    },

    /** Locks the verdict once: a second lock of the same registration answers the first row, unchanged. */
    async lock(v: Omit<StoredVerdict, 'id'>): Promise<{ verdict: StoredVerdict; created: boolean }> {
      const inserted = await db('verdicts')
        .insert({
          preregistration_id: v.preregistrationId,
          preregistration_sha256: v.preregistrationSha256,
          branch: v.branch,
          verdict: v.verdict,
          window_start: v.windowStart,
          window_end: v.windowEnd,
          evaluation: v.evaluationCanonical,
          evaluation_canonical: v.evaluationCanonical,
          evaluation_sha256: v.evaluationSha256,
          locked_at: v.lockedAt,
        })
        .onConflict('preregistration_id')
        .ignore()
        .returning('*');
      if (inserted[0]) return { verdict: verdict(inserted[0]), created: true };
      return { verdict: (await this.locked(v.preregistrationId))!, created: false };
    },

    async writeStatus(preregistrationId: string, s: VerdictStatus): Promise<void> {
      await db('verdict_status')
        .insert({ preregistration_id: preregistrationId, evaluated_at: s.evaluatedAt, status: JSON.stringify(s.status) })
        .onConflict('preregistration_id')
        .merge();
    },

    async status(preregistrationId: string): Promise<VerdictStatus | null> {
      const r = await db('verdict_status').where({ preregistration_id: preregistrationId }).first();
      return r ? { evaluatedAt: r.evaluated_at, status: r.status } : null;
    },
  };
}
export type VerdictStore = ReturnType<typeof createVerdictStore>;
