// The mint area's workflows, for the worker's bundle (workflows/index.ts). Deterministic code only.
export { mintLifecycle } from './mint-lifecycle-workflow';
