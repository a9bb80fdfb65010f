import { createAccuracyStore } from '../../db/accuracy/accuracy-store';
import { createBaseRateStore } from '../../db/accuracy/base-rate-store';
import { createGateStore } from '../../db/accuracy/gate-store';
import { createGateValidationStore } from '../../db/accuracy/gate-validation-store';
import { createRunnerNowStore } from '../../db/mint/runner-now-store';
import { createShadowStore } from '../../db/accuracy/shadow-store';
import { readRegisteredDocument, type RegisteredDocument } from '../../db/verdict/preregistration-document';
import { SHADOW_PROMOTION_V1 } from '../../domain/accuracy/shadow-promotion';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createAccuracyActivities } from './accuracy-activities';
import { createBaseRatesActivities } from './base-rates-activities';
import { createGateValidationActivities } from './gate-validation-activities';
import { createShadowPromotionActivities } from './shadow-promotion-activities';

export const accuracyActivities = defineActivityArea({
  name: 'accuracy',
  deps: ({ cfg, db, now }: Pick<WorkerContext, 'cfg' | 'db' | 'now'>) => ({
    accuracyStore: createAccuracyStore(db),
    gateStore: createGateStore(db),
    gateValidationStore: createGateValidationStore(db),
    runnerNowStore: createRunnerNowStore(db),
    shadowStore: createShadowStore(db),
    configuredGradVersions: [cfg.mint.champion, ...cfg.mint.challengers],
    promotionRuleDocument: once(() => readRegisteredDocument(SHADOW_PROMOTION_V1)),
    accuracyWindowDays: cfg.accuracy.windowDays,
    baseRateStore: createBaseRateStore(db),
    baseRatesWindowDays: cfg.accuracy.baseRatesWindowDays,
    now,
  }),
  activities: (d) => ({
    ...createAccuracyActivities(d),
    ...createGateValidationActivities(d),
    ...createShadowPromotionActivities(d),
    ...createBaseRatesActivities(d),
  }),
});

/** The rule document is read on first use, not when the area is built: a missing file fails the run that needs it. */
function once(read: () => RegisteredDocument): () => RegisteredDocument {
  let doc: RegisteredDocument | undefined;
  return () => (doc ??= read());
}
