import { Router } from 'express';
import type { CorpusSummary } from '../../db/mint/corpus-store';
import { sendPreparedRead } from '../http/prepared-body';
import { createPreparedRead } from '../http/prepared-read';
import type { PublicReads } from '../http/public-reads';
import { IN_SCOPE, LAUNCHPAD, OUT_OF_SCOPE, PREDICTIONS } from '../../domain/scope/scope-statement';

const CACHE_CONTROL = 'public, max-age=60';

export function scopeRoutes(d: {
  corpusSummary: () => Promise<CorpusSummary>;
  modelVersions: () => Promise<Record<string, string>>;
  readCacheTtlMs: number;
  publicReads: PublicReads;
}): Router {
  const r = Router();
  // The corpus grows once a minute: read once per TTL, not per request.
  const scope = createPreparedRead(
    async () => {
      const [c, modelVersions] = await Promise.all([d.corpusSummary(), d.modelVersions()]);
      return {
        launchpad: LAUNCHPAD,
        predictions: PREDICTIONS,
        corpus: {
          description: 'mints this deployment observed from launch and resolved at 24 h; nothing fitted on data from outside the service',
          resolved_mints: c.resolvedMints,
          oldest_resolved_at: c.oldest?.toISOString() ?? null,
          newest_resolved_at: c.newest?.toISOString() ?? null,
          resolution_horizon_h: 24,
        },
        in_scope: IN_SCOPE,
        out_of_scope: OUT_OF_SCOPE,
        model_versions: modelVersions,
      };
    },
    { ttlMs: d.readCacheTtlMs },
  );
  d.publicReads.register('/api/scope', scope, CACHE_CONTROL);
  r.get('/api/scope', async (req, res) => sendPreparedRead(req, res, await scope.get(), CACHE_CONTROL));
  return r;
}
