// The perps area's workflows, for the worker's bundle (workflows/index.ts). Deterministic code only.
export { perpsLeaderboardDiscovery, perpsMarketsPoll, perpsRankings } from './perps-markets-workflow';
export { perpsSnapshotSweep } from './perps-snapshot-sweep-workflow';
export { perpsEntryJudging } from './perps-entry-judging-workflow';
export { driftImport, driftFileImport } from './drift-import-workflow';
