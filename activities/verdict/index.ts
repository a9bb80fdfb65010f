import { readRegisteredDocument } from '../../db/verdict/preregistration-document';
import { createVerdictStore } from '../../db/verdict/verdict-store';
import { COMPOSITE_TIERS_V1 } from '../../domain/verdict/preregistration';
import { registrationWithT0 } from '../../domain/verdict/verdict-status';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createVerdictActivities } from './verdict-activities';

export const verdictActivities = defineActivityArea({
  name: 'verdict',
  deps: ({ cfg, db, now }: Pick<WorkerContext, 'cfg' | 'db' | 'now'>) => {
    const registration = registrationWithT0(COMPOSITE_TIERS_V1, cfg.verdict.t0Override);
    let document: ReturnType<typeof readRegisteredDocument> | undefined;
    return { verdictStore: createVerdictStore(db), registration, document: () => (document ??= readRegisteredDocument(registration)), now };
  },
  activities: createVerdictActivities,
});
