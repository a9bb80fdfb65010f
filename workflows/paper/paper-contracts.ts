import { PAPER_ENTRIES_CONTRACT } from './paper-entries-contract';
import { PAPER_POSITION_CONTRACT } from './paper-position-contract';
import { PAPER_PRICER_CONTRACT } from './paper-pricer-contract';
import type { WorkflowContract } from '../workflow-contract';

/** The paper area's workflow contracts (deadlines as data), for workflows/workflow-contracts.ts. */
export const PAPER_CONTRACTS: readonly WorkflowContract[] = [PAPER_ENTRIES_CONTRACT, PAPER_PRICER_CONTRACT, PAPER_POSITION_CONTRACT];
