// The metadata area's workflows, for the worker's bundle (workflows/index.ts). Deterministic code only.
export { launchMetadataFetcher } from './launch-metadata-workflow';
