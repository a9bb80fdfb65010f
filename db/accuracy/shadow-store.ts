import type { PairedScore, PromotionDecision, PromotionEvidence } from '../../domain/accuracy/shadow-promotion';
import { createShadowScoreStore } from '../mint/shadow-score-store';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type StoredDecision = {
  id: number;
  windowEnd: Date;
  decidedAt: Date;
  ruleId: string;
  ruleSha256: string;
  champion: string;
  challenger: string;
  decision: PromotionDecision;
  evidence: PromotionEvidence;
  evidenceSha256: string;
};

const toDecision = (r: any): StoredDecision => ({
  id: Number(r.id),
  windowEnd: r.window_end,
  decidedAt: r.decided_at,
  ruleId: r.rule_id,
  ruleSha256: r.rule_sha256,
  champion: r.champion,
  challenger: r.challenger,
  decision: r.decision,
  evidence: r.evidence,
  evidenceSha256: r.evidence_sha256,
});

/** One model version's resolved forward score (served or shadow), as the side-by-side figures read them. */
export type ModelForwardScore = { modelName: string; ageBucket: number; prob: number; graduated: boolean };

/**
 * Every forward grad_prob score by model version name: the served ones (their version's name, before `@`) and the
 * shadow ones, each resolved under `labelVersion`, logged before its resolution and taken before its mint graduated.
 * A version's scores are the same evidence whether it served or shadowed them.
 */
const FORWARD_SQL = `
  WITH fw AS (
    SELECT p.mint, p.age_bucket, split_part(p.model_version, '@', 1) AS model_name, p.grad_prob, p.as_of, p.predicted_at FROM predictions p
    UNION ALL
    SELECT s.mint, s.age_bucket, s.model_name, s.grad_prob, s.as_of, s.predicted_at FROM shadow_predictions s
  ), resolved AS (
    SELECT fw.*, o.graduated FROM fw
    JOIN mint_outcomes o ON o.mint = fw.mint
    WHERE o.label_version = :labelVersion
      AND fw.predicted_at < o.resolved_at
      AND o.resolved_at <= :until
      AND fw.predicted_at >= :since
      AND NOT EXISTS (SELECT 1 FROM mint_graduations g WHERE g.mint = fw.mint AND coalesce(g.completed_at, g.migrated_at) <= fw.as_of)
  )`;

/**
 * Shadow scores and promotion decisions (migration 0029); both tables are committed to the audit ledger. The scorer's
 * side (logging shadow scores, which version serves) is the mint area's (db/mint/shadow-score-store.ts); this store
 * adds what the accuracy area reads and decides.
 */
export function createShadowStore(handle: Db) {
  const db = knexOf(handle);
  return {
    ...createShadowScoreStore(handle),
    /** Resolved (mint, age) pairs scored forward by both versions up to `until`. */
    async pairs(champion: string, challenger: string, until: Date, labelVersion: string): Promise<PairedScore[]> {
      const { rows } = await db.raw(
        `${FORWARD_SQL}
        SELECT a.mint, a.age_bucket, a.grad_prob AS champion_prob, b.grad_prob AS challenger_prob, a.graduated
        FROM resolved a JOIN resolved b ON b.mint = a.mint AND b.age_bucket = a.age_bucket
        WHERE a.model_name = :champion AND b.model_name = :challenger
        ORDER BY a.mint, a.age_bucket`,
        { labelVersion, until, since: new Date(0), champion, challenger },
      );
      return rows.map((r: any) => ({
        mint: r.mint,
        ageBucket: r.age_bucket,
        champion: r.champion_prob,
        challenger: r.challenger_prob,
        graduated: r.graduated,
      }));
    },

    /** Every resolved forward score of the named versions logged since `since` (the accuracy page's side-by-side). */
    async forwardScores(names: readonly string[], since: Date, until: Date, labelVersion: string): Promise<ModelForwardScore[]> {
      if (!names.length) return [];
      const { rows } = await db.raw(
        `${FORWARD_SQL}
        SELECT model_name, age_bucket, grad_prob, graduated FROM resolved WHERE model_name = ANY(:names)`,
        { labelVersion, until, since, names: [...names] },
      );
      return rows.map((r: any) => ({ modelName: r.model_name, ageBucket: r.age_bucket, prob: r.grad_prob, graduated: r.graduated }));
    },

    /** The final decision (promote or keep) on this challenger against this champion, if one was taken. */
    async finalDecision(challenger: string, champion: string): Promise<StoredDecision | null> {
      const r = await db('model_promotions').where({ challenger, champion }).whereIn('decision', ['promote', 'keep']).orderBy('decided_at').first();
      return r ? toDecision(r) : null;
    },

    async decisionAt(windowEnd: Date, challenger: string): Promise<StoredDecision | null> {
      const r = await db('model_promotions').where({ window_end: windowEnd, challenger }).first();
      return r ? toDecision(r) : null;
    },

    /** Stores one decision once per (window, challenger): a retry gets the first row back. */
    async insertDecision(d: Omit<StoredDecision, 'id'>): Promise<{ decision: StoredDecision; created: boolean }> {
      const inserted = await db('model_promotions')
        .insert({
          window_end: d.windowEnd,
          decided_at: d.decidedAt,
          rule_id: d.ruleId,
          rule_sha256: d.ruleSha256,
          champion: d.champion,
          challenger: d.challenger,
          decision: d.decision,
          n: d.evidence.n,
          positives: d.evidence.positives,
          mean_diff: d.evidence.mean_diff,
          upper_bound: d.evidence.upper_bound,
          evidence: JSON.stringify(d.evidence),
          evidence_sha256: d.evidenceSha256,
        })
        .onConflict(['window_end', 'challenger'])
        .ignore()
        .returning('*');
      if (inserted[0]) return { decision: toDecision(inserted[0]), created: true };
      return { decision: (await this.decisionAt(d.windowEnd, d.challenger))!, created: false };
    },

    async recentDecisions(limit: number): Promise<StoredDecision[]> {
      const rows = await db('model_promotions').orderBy('decided_at', 'desc').orderBy('id', 'desc').limit(limit);
      return rows.map(toDecision);
    },
  };
}
export type ShadowStore = ReturnType<typeof createShadowStore>;
