// The signals area's workflows, for the worker's bundle (workflows/index.ts). Deterministic code only.
export { resolveCompositePredictions } from './composite-resolution-workflow';
