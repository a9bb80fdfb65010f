import { createAlertFireStore } from '../../db/alerts/alert-fire-store';
import { createAlertRuleStore } from '../../db/alerts/alert-rule-store';
import { createWatchlistStore } from '../../db/alerts/watchlist-store';
import { probeUrlFor, type Config } from '../../platform/config';
import type { Db } from '../../db/db-handle';
import { createAlertEvaluator } from './alert-evaluator';

/** The alert evaluator over its stores, registered by the alerts area on the live tick (alert-live-consumer.ts). */
export function buildAlertEvaluator({ cfg, db }: { cfg: Config; db: Db }) {
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
