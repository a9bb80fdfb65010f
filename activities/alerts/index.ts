import { createAlertRuleStore } from '../../db/alerts/alert-rule-store';
import { defineActivityArea, type WorkerContext } from '../activity-area';

/**
 * The alerts area's activities. Rule evaluation itself runs inside the live projector's refresh (mint area), over
 * the states it already holds: see alert-evaluator.ts.
 */
export const alertsActivities = defineActivityArea({
  name: 'alerts',
  deps: ({ cfg, db, now }: Pick<WorkerContext, 'cfg' | 'db' | 'now'>) => ({
    ruleStore: createAlertRuleStore(db, { holderThresholds: cfg.access.holder.thresholds }),
    auditGradProb: cfg.alerts.auditGradProb,
    now,
  }),
  activities: () => ({}),
  start: async (d) => {
    // The audited house rule follows the configuration: a new threshold retires the old rule and starts a new one.
    await d.ruleStore.ensureHouseRule('grad_prob', d.auditGradProb, d.now());
    return () => undefined;
  },
});
