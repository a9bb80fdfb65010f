// The accuracy area's workflows, for the worker's bundle (workflows/index.ts). Deterministic code only.
export { recomputeAccuracy } from './accuracy-workflow';
export { validateSurvivalGate } from './gate-validation-workflow';
export { judgeShadowModels } from './shadow-promotion-workflow';
export { projectBaseRates } from './base-rates-workflow';
