import { Router } from 'express';
import type { CorpusSummary } from '../../db/mint/corpus-store';
import type { AuditTrailStatement } from '../../domain/ledger/audit-trail-statement';
import { IN_SCOPE, LAUNCHPAD, OUT_OF_SCOPE, PREDICTIONS } from '../../domain/scope/scope-statement';

export function scopeRoutes(d: {
  corpusSummary: () => Promise<CorpusSummary>;
  modelVersions: () => Promise<Record<string, string>>;
  auditTrail: () => Promise<AuditTrailStatement>;
}): Router {
  const r = Router();
  r.get('/api/scope', async (_req, res) => {
    const c = await d.corpusSummary();
    const audit = await d.auditTrail();
    res.set('Cache-Control', 'public, max-age=60').json({
      launchpad: LAUNCHPAD,
      predictions: PREDICTIONS,
      corpus: {
        description:
          'mints this deployment observed from launch and resolved at 24 h, plus the labelled history listed under `history` (never counted in forward accuracy)',
        resolved_mints: c.resolvedMints,
        oldest_resolved_at: c.oldest?.toISOString() ?? null,
        newest_resolved_at: c.newest?.toISOString() ?? null,
        resolution_horizon_h: 24,
        history: c.history.map((h) => ({
          source: h.source,
          mints: h.mints,
          oldest_created_at: h.oldestCreatedAt?.toISOString() ?? null,
          newest_created_at: h.newestCreatedAt?.toISOString() ?? null,
        })),
      },
      in_scope: [...IN_SCOPE, `audit trail: ${audit.summary}`],
      out_of_scope: OUT_OF_SCOPE,
      model_versions: await d.modelVersions(),
      audit_trail: audit,
    });
  });
  return r;
}
