import type { WorkflowContract } from '../workflow-contract';
import { HISTORY_BACKFILL_CHUNK_CONTRACT, HISTORY_BACKFILL_CONTRACT } from './history-backfill-contract';

/** The history area's workflow contracts, for workflows/workflow-contracts.ts. */
export const HISTORY_CONTRACTS: readonly WorkflowContract[] = [HISTORY_BACKFILL_CONTRACT, HISTORY_BACKFILL_CHUNK_CONTRACT];
