import { scheduledContract } from '../workflow-contract';

/**
 * Contract of the ledger's scheduled run: seal the hours that closed a grace period ago, commit each sealed hour
 * of every track in order (a child workflow per hour), and start the anchor of each new commit.
 */
export const LEDGER_TICK_WORKFLOW = 'ledgerTick';
export const LEDGER_TICK_SCHEDULE_ID = 'schedule:ledger';
export const LEDGER_TICK_WORKFLOW_ID_PREFIX = 'ledger-tick';

export type LedgerTickResult = {
  sealedUntil: string;
  committed: { track: string; hourStart: string; leafCount: number; created: boolean }[];
  anchorsStarted: number;
  /** Tracks whose next hour could not be committed in this run, with why; the run then fails after the others. */
  failed: { track: string; hourStart: string; error: string }[];
};

export const LEDGER_TICK_CONTRACT = scheduledContract(LEDGER_TICK_WORKFLOW, LEDGER_TICK_SCHEDULE_ID, LEDGER_TICK_WORKFLOW_ID_PREFIX, {
  everyS: (cfg) => cfg.ledger.commitEveryS,
  runTimeoutS: 3600,
  deadlineS: 60 * 60,
});
