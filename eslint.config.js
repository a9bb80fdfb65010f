// @ts-check
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const { builtinModules } = require('node:module');

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

module.exports = tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.tools/**', '.data/**', '.cache/**', 'coverage/**'] },
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly', console: 'readonly' } },
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-require-imports': 'off',
      'no-restricted-properties': 'off',
    },
  },
  {
    // No process.env outside the one typed config (tests and dev tooling may read their own switches).
    files: ['api/**', 'activities/**', 'workers/**', 'db/**', 'domain/**', 'clients/**', 'ingest/**'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read settings through platform/config.ts.' }],
    },
  },
  {
    // Workflow code is replayed and must be deterministic: no I/O, no clocks or randomness of its own,
    // activities as types only (their implementations run in the worker, not in the workflow sandbox).
    files: ['workflows/**/*.ts'],
    // Starters run in the processes that start workflows, never in the workflow sandbox.
    ignores: ['workflows/**/*-starter.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [...nodeBuiltins, 'knex', 'pg', 'express', 'pino', 'ws', 'zod', '@temporalio/client', '@temporalio/worker', '@temporalio/activity'].map((name) => ({
            name,
            message: 'Workflow code must be deterministic: no I/O or Node built-ins here; do it in an activity.',
          })),
          patterns: [
            { group: ['**/activities', '**/activities/**'], allowTypeImports: true, message: 'Import activities as types only (proxyActivities<typeof …>).' },
            { group: ['**/platform/**'], allowTypeImports: true, message: 'Workflow code takes configuration as input; it may name platform types only.' },
            { group: ['**/*-starter'], message: 'Starters use the Temporal client: they never enter the workflow bundle.' },
            { group: ['**/db/**', '**/api/**', '**/clients/**', '**/ingest/**', '**/workers/**'], message: 'Workflow code may import only domain/, workflows/ and @temporalio/workflow.' },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Use workflow time (new Date() is replay-safe in the sandbox) or pass time in.' },
        { object: 'Math', property: 'random', message: 'Use uuid4() from @temporalio/workflow.' },
        { object: 'process', property: 'env', message: 'Workflows take configuration as input.' },
      ],
    },
  },
);
