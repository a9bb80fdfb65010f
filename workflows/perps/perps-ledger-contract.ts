import type { WorkflowContract } from '../workflow-contract';

export const PERPS_LEDGER_WORKFLOW = 'perpsLedgerCommit';
export const PERPS_LEDGER_SCHEDULE_ID = 'schedule:perps-ledger';

/**
 * Every 10 minutes: commits the closed hours of smart entries to the perps ledger track (an hour is closed 20
 * minutes after its end, so each hour is committed between 20 and 30 minutes after it ends).
 */
export const PERPS_LEDGER_CONTRACT: WorkflowContract = {
  workflowType: PERPS_LEDGER_WORKFLOW,
  schedule: { scheduleId: PERPS_LEDGER_SCHEDULE_ID, workflowIdPrefix: 'perps-ledger', everyS: () => 600, runTimeoutS: () => 600 },
  deadlineS: 20 * 60,
};
