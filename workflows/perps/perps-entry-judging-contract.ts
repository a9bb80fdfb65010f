import { HORIZON_MS, PERPS_HORIZONS, type PerpsHorizon } from '../../domain/perps/perps-types';
import type { WorkflowContract } from '../workflow-contract';

export const PERPS_ENTRY_JUDGING_WORKFLOW = 'perpsEntryJudging';
export const perpsEntryWorkflowId = (entryId: number) => `perps-entry:${entryId}`;

export type JudgingHorizon = { horizon: PerpsHorizon; afterMs: number };
export type PerpsEntryJudgingInput = { entryId: number; detectedAt: string; horizons: JudgingHorizon[] };
export type HorizonOutcome =
  | { horizon: PerpsHorizon; status: 'judged'; price: number; moveBps: number; win: boolean; firstTime: boolean }
  | { horizon: PerpsHorizon; status: 'no_price'; error: string };

/** judge-v1's horizons: 5 minutes, 1 hour, 24 hours after detection. */
export const DEFAULT_JUDGING_HORIZONS: JudgingHorizon[] = PERPS_HORIZONS.map((horizon) => ({ horizon, afterMs: HORIZON_MS[horizon] }));

/** One per smart entry, started by the snapshot sweep; open for a day (its last horizon), hence the deadline. */
export const PERPS_ENTRY_JUDGING_CONTRACT: WorkflowContract = { workflowType: PERPS_ENTRY_JUDGING_WORKFLOW, deadlineS: 30 * 3600 };
