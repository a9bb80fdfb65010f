// The wallets area's workflows, for the worker's bundle (workflows/index.ts). Deterministic code only.
export { rebuildWalletIndex } from './wallet-rebuild-workflow';
export { refreshWalletRanks } from './wallet-ranks-workflow';
