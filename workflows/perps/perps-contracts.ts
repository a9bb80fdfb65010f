import type { WorkflowContract } from '../workflow-contract';
import { DRIFT_FILE_IMPORT_CONTRACT, DRIFT_IMPORT_CONTRACT } from './drift-import-contract';
import { PERPS_ENTRY_JUDGING_CONTRACT } from './perps-entry-judging-contract';
import { PERPS_LEADERBOARD_CONTRACT } from './perps-leaderboard-contract';
import { PERPS_MARKETS_CONTRACT } from './perps-markets-contract';
import { PERPS_RANKINGS_CONTRACT } from './perps-rankings-contract';
import { PERPS_SNAPSHOT_SWEEP_CONTRACT } from './perps-snapshot-sweep-contract';

/** The perps area's workflow contracts (schedules and deadlines as data), for workflows/workflow-contracts.ts. */
export const PERPS_CONTRACTS: readonly WorkflowContract[] = [
  PERPS_MARKETS_CONTRACT,
  PERPS_SNAPSHOT_SWEEP_CONTRACT,
  PERPS_RANKINGS_CONTRACT,
  PERPS_LEADERBOARD_CONTRACT,
  PERPS_ENTRY_JUDGING_CONTRACT,
  DRIFT_IMPORT_CONTRACT,
  DRIFT_FILE_IMPORT_CONTRACT,
];
