// The ops area's workflows, for the worker's bundle (workflows/index.ts). Deterministic code only.
export { watchdogTick } from './watchdog-workflow';
