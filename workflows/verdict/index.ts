// The verdict area's workflows, for the worker's bundle (workflows/index.ts). Deterministic code only.
export { evaluateVerdict } from './verdict-workflow';
