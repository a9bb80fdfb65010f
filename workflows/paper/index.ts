// The paper area's workflows, for the worker's bundle (workflows/index.ts). Deterministic code only.
export { paperEntries } from './paper-entries-workflow';
export { paperPricer } from './paper-pricer-workflow';
export { paperPosition } from './paper-position-workflow';
