import { createAlertFireStore } from '../../db/alerts/alert-fire-store';
import { createAlertRuleStore } from '../../db/alerts/alert-rule-store';
import { createWatchlistStore } from '../../db/alerts/watchlist-store';
import type { Config } from '../../platform/config';
import type { Knex } from '../../platform/db';
import { createAlertEvaluator } from './alert-evaluator';

/** The probe link a message carries: the public base address when configured, else the path alone. */
export const probeUrlFor = (cfg: Config) => (mint: string) => `${(cfg.api.publicBaseUrl ?? '').replace(/\/+$/, '')}/api/v1/probe/${mint}`;

/** The alert evaluator over its stores, registered by the alerts area on the live tick (alert-live-consumer.ts). */
export function buildAlertEvaluator({ cfg, db }: { cfg: Config; db: Knex }) {
  return createAlertEvaluator({
    ruleStore: createAlertRuleStore(db, { holderThresholds: cfg.access.holder.thresholds }),
    fireStore: createAlertFireStore(db),
    watchStore: createWatchlistStore(db, { holderThresholds: cfg.access.holder.thresholds }),
    windowS: cfg.live.windowS,
    rulesMaxAgeMs: cfg.alerts.rulesMaxAgeMs,
    maxFiresPerRefresh: cfg.alerts.maxFiresPerRefresh,
    probeUrl: probeUrlFor(cfg),
  });
}
