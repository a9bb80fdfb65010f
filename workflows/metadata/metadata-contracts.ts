import type { WorkflowContract } from '../workflow-contract';
import { LAUNCH_METADATA_CONTRACT } from './launch-metadata-contract';

/** The metadata area's workflow contracts, for workflows/workflow-contracts.ts. */
export const METADATA_CONTRACTS: readonly WorkflowContract[] = [LAUNCH_METADATA_CONTRACT];
