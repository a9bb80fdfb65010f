import { Router } from 'express';
import type { AlertAuditStore } from '../../db/alerts/alert-audit-store';
import { capRows } from '../http/query-caps';

export type AlertAuditRouteDeps = { auditStore: AlertAuditStore; now: () => Date };

const HOUR = 3_600_000;
const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** `GET /api/alerts/audit`: the audited house grad_prob rule's recent fires with their outcomes, newest first. */
export function alertAuditRoutes(d: AlertAuditRouteDeps): Router {
  const r = Router();
  r.get('/api/alerts/audit', async (req, res) => {
    const q = req.query as { hours?: number; limit?: number };
    const hours = q.hours ?? 24;
    const limit = capRows(q.limit ?? 200);
    const rule = await d.auditStore.activeRule();
    // The worker puts the rule in force when it starts; before that nothing has been audited (not an outage).
    if (!rule) return void res.set('Cache-Control', 'no-store').json({ hours, rule: null, count: 0, fires: [] });
    const since = new Date(Math.max(d.now().getTime() - hours * HOUR, rule.activeSince.getTime()));
    const fires = await d.auditStore.fires(rule.ruleId, since, limit);
    res.set('Cache-Control', 'no-store').json({
      hours,
      rule: { rule_id: rule.ruleId, kind: 'grad_prob', threshold: rule.threshold, version: rule.version, active_since: rule.activeSince.toISOString() },
      count: fires.length,
      fires: fires.map((f) => ({
        alert_id: f.fireId,
        mint: f.mint,
        fired_at: f.firedAt.toISOString(),
        grad_prob: f.gradProb,
        age_bucket: f.ageBucket,
        max_mult: f.maxMult === null ? null : r6(f.maxMult),
        did_graduate: f.didGraduate,
        resolved_at: f.resolvedAt ? f.resolvedAt.toISOString() : null,
      })),
    });
  });
  return r;
}
