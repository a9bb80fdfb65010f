// The access area's workflows, for the worker's bundle (workflows/index.ts). Deterministic code only.
export { walletSignup } from './wallet-signup-workflow';
export { recheckHolderBalances } from './holder-recheck-workflow';
