import { ACCURACY_CONTRACT } from './accuracy-contract';
import { BASE_RATES_CONTRACT } from './base-rates-contract';
import { GATE_VALIDATION_CONTRACT } from './gate-validation-contract';
import { SHADOW_PROMOTION_CONTRACT } from './shadow-promotion-contract';
import type { WorkflowContract } from '../workflow-contract';

/** The accuracy area's workflow contracts (schedules and deadlines as data), for workflows/workflow-contracts.ts. */
export const ACCURACY_CONTRACTS: readonly WorkflowContract[] = [ACCURACY_CONTRACT, GATE_VALIDATION_CONTRACT, SHADOW_PROMOTION_CONTRACT, BASE_RATES_CONTRACT];
