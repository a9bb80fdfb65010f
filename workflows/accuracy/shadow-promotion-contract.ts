import type { WorkflowContract } from '../workflow-contract';

/** Contract of the shadow promotion rule's hourly judgement (docs/preregistration/shadow-promotion-v1.md). */
export const SHADOW_PROMOTION_WORKFLOW = 'judgeShadowModels';
export const SHADOW_PROMOTION_SCHEDULE_ID = 'schedule:shadow-promotion';
/** Temporal appends the scheduled time: `shadow-promotion-<time>`. */
export const SHADOW_PROMOTION_WORKFLOW_ID_PREFIX = 'shadow-promotion';

export type ShadowPromotionRunResult = {
  windowEnd: string;
  /** The version serving when the run started. */
  champion: string;
  decisions: { challenger: string; decision: 'promote' | 'keep' | 'insufficient_data'; n: number; created: boolean }[];
};

export const SHADOW_PROMOTION_CONTRACT: WorkflowContract = {
  workflowType: SHADOW_PROMOTION_WORKFLOW,
  schedule: {
    scheduleId: SHADOW_PROMOTION_SCHEDULE_ID,
    workflowIdPrefix: SHADOW_PROMOTION_WORKFLOW_ID_PREFIX,
    everyS: (cfg) => cfg.accuracy.promotionIntervalS,
    runTimeoutS: () => 600,
  },
  deadlineS: 15 * 60,
};
