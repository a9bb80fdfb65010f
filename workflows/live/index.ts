// The live area's workflows, for the worker's bundle (workflows/index.ts). Deterministic code only.
export { liveProjector } from './live-projector-workflow';
