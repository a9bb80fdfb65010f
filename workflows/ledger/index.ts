// The ledger area's workflows, for the worker's bundle (workflows/index.ts). Deterministic code only.
export { ledgerTick } from './ledger-tick-workflow';
export { ledgerHourCommit } from './ledger-commit-workflow';
export { ledgerAnchor } from './ledger-anchor-workflow';
