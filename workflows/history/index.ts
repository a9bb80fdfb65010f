// The history area's workflows, for the worker's bundle (workflows/index.ts). Deterministic code only.
export { historyBackfill, historyBackfillChunk } from './history-backfill-workflow';
