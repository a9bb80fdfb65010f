import type { LearnedMetric } from '../../domain/scoring/learned-knn-model';
import { learnedMetricBody } from '../accuracy/learned-metric-body';
import { Router } from 'express';
import type { CorpusSummary } from '../../db/mint/corpus-store';
import { sendPreparedRead } from '../http/prepared-body';
import { createPreparedRead } from '../http/prepared-read';
import type { PublicReads } from '../http/public-reads';
import type { AuditTrailStatement } from '../../domain/ledger/audit-trail-statement';
import { IN_SCOPE, LAUNCHPAD, OUT_OF_SCOPE, PREDICTIONS } from '../../domain/scope/scope-statement';
import { corpusShare } from '../../domain/history/corpus-share';
import type { ActiveInputs } from '../../domain/ops/active-inputs';

const CACHE_CONTROL = 'public, max-age=60';

export function scopeRoutes(d: {
  corpusSummary: () => Promise<CorpusSummary>;
  modelVersions: () => Promise<Record<string, string>>;
  /** The learned metric of each published model that has one, by `<predictor>@<age>`. */
  modelMetrics: () => Promise<Record<string, LearnedMetric>>;
  auditTrail: () => Promise<AuditTrailStatement>;
  inputs: ActiveInputs;
  readCacheTtlMs: number;
  publicReads: PublicReads;
}): Router {
  const r = Router();
  // The corpus grows once a minute: read once per TTL, not per request.
  const scope = createPreparedRead(
    async () => {
      const [c, modelVersions, modelMetrics, audit] = await Promise.all([d.corpusSummary(), d.modelVersions(), d.modelMetrics(), d.auditTrail()]);
      return {
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
          backfilled_share: corpusShare(c).backfilledShare,
        },
        in_scope: [...IN_SCOPE, `audit trail: ${audit.summary}`],
        out_of_scope: OUT_OF_SCOPE,
        model_versions: modelVersions,
        model_metrics: Object.fromEntries(Object.entries(modelMetrics).map(([key, m]) => [key, learnedMetricBody(m)])),
        audit_trail: audit,
        inputs: d.inputs,
      };
    },
    { ttlMs: d.readCacheTtlMs },
  );
  d.publicReads.register('/api/scope', scope, CACHE_CONTROL);
  r.get('/api/scope', async (req, res) => sendPreparedRead(req, res, await scope.get(), CACHE_CONTROL));
  return r;
}
