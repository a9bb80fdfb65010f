/**
 * Test tiers as jest projects: unit (pure, the quick loop), unit-slow (pure but long: simulations and walk-forward
 * backtests, `*.slow.test.ts` beside their area's unit tests), workflow (real Temporal), e2e (HTTP + real Postgres),
 * replay (saved histories). Only the tiers that need them start Postgres and Temporal.
 */
const transform = { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] };
const servers = { globalSetup: '<rootDir>/test/support/global-setup.ts', globalTeardown: '<rootDir>/test/support/global-teardown.ts' };
const project = (name, extra = {}) => ({
  displayName: name,
  testEnvironment: 'node',
  transform,
  testMatch: [`<rootDir>/test/${name}/**/*.test.ts`],
  // Git-ignored data (installed published clients, database clusters) holds no modules of ours: never crawled.
  modulePathIgnorePatterns: ['<rootDir>/.cache/', '<rootDir>/.data/'],
  ...extra,
});

module.exports = {
  transform,
  // Workflow tests wait on real timers and retries of the real server.
  testTimeout: 60_000,
  // Two workers even on two cores: with one, jest runs every file in its own process, and what native modules
  // (Temporal's runtime, pg) keep alive adds up over 50+ files. Workers are recycled once they hold 1 GB.
  maxWorkers: 2,
  workerIdleMemoryLimit: '1GB',
  projects: [
    project('unit', { testPathIgnorePatterns: ['\\.slow\\.test\\.ts$'] }),
    project('unit-slow', { testMatch: ['<rootDir>/test/unit/**/*.slow.test.ts'] }),
    project('workflow', servers),
    project('e2e', servers),
    project('replay', servers),
  ],
};
