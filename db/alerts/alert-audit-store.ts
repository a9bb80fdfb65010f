import { LABEL_VERSION } from '../../domain/launch/outcome-labels';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type AuditedRule = { ruleId: number; threshold: number; version: string; activeSince: Date };
export type AuditedFire = {
  fireId: number;
  mint: string;
  firedAt: Date;
  gradProb: number;
  ageBucket: number;
  maxMult: number | null;
  didGraduate: boolean | null;
  resolvedAt: Date | null;
};

/**
 * The public alert audit. "The currently active grad_prob rule" is the service's own grad_prob rule in force
 * (no owner; at most one at a time, a unique index says so), never a user's: users' rules are private and many,
 * and "the rule activated last" changes whenever anyone adds one. Its fires are joined with the mint's resolved
 * outcome: max_mult is the 24 h peak price over the price at the fire.
 */
export function createAlertAuditStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async activeRule(): Promise<AuditedRule | null> {
      const r = await db('alert_rules').whereNull('owner_key_id').where({ kind: 'grad_prob' }).whereNull('removed_at').first();
      return r ? { ruleId: Number(r.id), threshold: r.threshold, version: r.version, activeSince: r.created_at } : null;
    },

    async fires(ruleId: number, since: Date, limit: number): Promise<AuditedFire[]> {
      const rows = await db('alert_fires as f')
        .leftJoin('mint_outcomes as o', (j) => j.on('o.mint', 'f.mint').andOnVal('o.label_version', LABEL_VERSION))
        .where('f.rule_id', ruleId)
        .where('f.fired_at', '>=', since)
        .orderBy([
          { column: 'f.fired_at', order: 'desc' },
          { column: 'f.id', order: 'desc' },
        ])
        .limit(limit)
        .select('f.id', 'f.mint', 'f.fired_at', 'f.grad_prob', 'f.age_bucket', 'f.price_sol', 'o.graduated', 'o.peak_price_sol_24h', 'o.resolved_at');
      return rows.map((r) => ({
        fireId: Number(r.id),
        mint: r.mint,
        firedAt: r.fired_at,
        gradProb: r.grad_prob,
        ageBucket: r.age_bucket,
        maxMult: r.resolved_at === null || !(r.price_sol > 0) ? null : r.peak_price_sol_24h / r.price_sol,
        didGraduate: r.resolved_at === null ? null : r.graduated,
        resolvedAt: r.resolved_at,
      }));
    },
  };
}
export type AlertAuditStore = ReturnType<typeof createAlertAuditStore>;
