// @ts-check
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const importX = require('eslint-plugin-import-x');
const { builtinModules } = require('node:module');

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/** An import pattern for each role folder named: the folder's index and anything inside it. */
const folders = (...names) => names.flatMap((n) => [`**/${n}`, `**/${n}/**`]);
/** Workflow code itself (the bundle entry, an area's workflow list, a workflow), never its contract or starter. */
const WORKFLOW_CODE = String.raw`(^|/)workflows(/[a-z]+)?(/index)?$|(^|/)workflows/.*-workflow$`;

/**
 * Where the database driver may be named: db/ (stores and read models) and the composition roots, which create the
 * pool and hand it on as a `Db` (db/db-handle.ts). Type imports count too: a knex type is how SQL gets written
 * outside db/. db/knex-handle.ts, which brands a knex instance as a `Db` and opens a `Db` back into knex, counts as
 * the driver: elsewhere a `Db` is an opaque token the type checker will not let be queried.
 */
const COMPOSITION_ROOTS = ['api/server.ts', 'workers/main-worker.ts', 'ingest/main-ingest.ts', 'bot/main-bot.ts'];
const DB_DRIVER = ['knex', 'pg'];
const DB_DRIVER_MESSAGE = 'Only db/ and the composition roots touch the database driver: queries live in db/<area>/, other code passes a Db (db/db-handle.ts).';
const dbDriverModule = { group: ['**/platform/db', '**/db/knex-handle'], message: DB_DRIVER_MESSAGE };

/**
 * One layer rule: files under `files` may not import from the folders or packages named, nor (with `noDbDriver`) the
 * database driver, which the composition roots among them may. Each role folder has one such block (ESLint takes the
 * last block's options for a rule, so blocks must not overlap).
 */
const layer = (files, rule, { folders: banned = [], packages = [], patterns = [], noDbDriver = false }) => {
  const restrict = (driverBanned) => ({
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        paths: [...packages.map((name) => ({ name, message: rule })), ...(driverBanned ? DB_DRIVER.map((name) => ({ name, message: DB_DRIVER_MESSAGE })) : [])],
        patterns: [
          ...(banned.length ? [{ group: banned, message: rule }] : []),
          ...(packages.length ? [{ group: packages.map((p) => `${p}/*`), message: rule }] : []),
          ...(driverBanned ? [{ group: DB_DRIVER.map((p) => `${p}/*`), message: DB_DRIVER_MESSAGE }, dbDriverModule] : []),
          ...patterns,
        ],
      },
    ],
  });
  if (!noDbDriver) return [{ files, rules: restrict(false) }];
  const roots = COMPOSITION_ROOTS.filter((r) => files.some((f) => r.startsWith(f.replace(/\*\*\/\*\.ts$/, ''))));
  return [{ files, ignores: roots, rules: restrict(true) }, ...(roots.length ? [{ files: roots, rules: restrict(false) }] : [])];
};

const TEMPORAL = ['@temporalio/client', '@temporalio/worker', '@temporalio/activity', '@temporalio/workflow', '@temporalio/common'];
const onlyContractsAndStarters = { regex: WORKFLOW_CODE, message: 'Outside the bundle, import a workflow’s contract or starter, never its code.' };

module.exports = tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.tools/**', '.data/**', '.cache/**', 'coverage/**'] },
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly', console: 'readonly' },
    },
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
    // No import cycles anywhere: a cycle is two modules that can no longer be understood (or loaded) one at a time.
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // No process.env outside the one typed config (tests and dev tooling may read their own switches).
    files: ['api/**', 'activities/**', 'workers/**', 'db/**', 'domain/**', 'clients/**', 'ingest/**', 'models/**', 'bot/**'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read settings through platform/config.ts.' }],
    },
  },

  // Layer rules: which role folder may import which. A rule that holds only by discipline stops holding when the code doubles.
  ...layer(['domain/**/*.ts'], 'domain/ is pure: no I/O, no framework; the other layers call it, never the reverse.', {
    folders: folders('db', 'api', 'activities', 'workflows', 'clients', 'platform', 'ingest', 'workers', 'models', 'bot', 'scripts', 'bench', 'test'),
    packages: ['knex', 'pg', 'express', 'pino', ...TEMPORAL],
  }),
  ...layer(
    ['api/**/*.ts'],
    'api/ serves reads and starts commands through starters; activities, the model service, workers, ingest and the bot are other processes’ code.',
    {
      folders: folders('activities', 'workers', 'ingest', 'models', 'bot'),
      patterns: [onlyContractsAndStarters],
      noDbDriver: true,
    },
  ),
  ...layer(['db/**/*.ts'], 'db/ holds stores and read models over domain types: it knows no API, activity, workflow or outside client.', {
    folders: folders('api', 'activities', 'workflows', 'clients', 'workers', 'ingest', 'models', 'bot'),
  }),
  ...layer(['platform/**/*.ts'], 'platform/ is shared plumbing: it names no area (pure domain constants aside).', {
    folders: folders('api', 'activities', 'workflows', 'db', 'clients', 'ingest', 'workers', 'models', 'bot'),
  }),
  ...layer(['clients/**/*.ts'], 'clients/ speak to outside services in domain types; what they read is stored by the caller, through a port.', {
    folders: folders('db', 'api', 'activities', 'workflows', 'workers', 'ingest', 'models', 'bot'),
    packages: ['express'],
    noDbDriver: true,
  }),
  ...layer(
    ['activities/**/*.ts'],
    'activities/ are built from stores, clients and the model service; they never reach into the API, workers, ingest or the bot.',
    {
      folders: folders('api', 'workers', 'ingest', 'bot'),
      packages: ['express'],
      patterns: [onlyContractsAndStarters],
      noDbDriver: true,
    },
  ),
  ...layer(['models/**/*.ts'], 'models/ hold in-process model services over stores and domain logic.', {
    folders: folders('api', 'activities', 'workflows', 'workers', 'ingest', 'clients', 'bot'),
    packages: ['express', ...TEMPORAL],
    noDbDriver: true,
  }),
  ...layer(['ingest/**/*.ts'], 'ingest/ writes facts and starts workflows through their starters.', {
    folders: folders('api', 'activities', 'workers', 'models', 'bot'),
    patterns: [onlyContractsAndStarters],
    noDbDriver: true,
  }),
  ...layer(['workers/**/*.ts'], 'workers/ compose activity areas; the API, ingest and the bot are other processes.', {
    folders: folders('api', 'ingest', 'bot'),
    noDbDriver: true,
  }),
  ...layer(
    ['bot/**/*.ts'],
    'bot/ receives the messaging bot’s updates and runs its commands over stores and starters; activities, the API, workers, ingest and models are other processes’ code.',
    {
      folders: folders('api', 'activities', 'workers', 'ingest', 'models'),
      packages: ['express'],
      patterns: [onlyContractsAndStarters],
      noDbDriver: true,
    },
  ),
  ...layer(['web/**/*.ts'], 'web/ is the dashboard’s browser code: it reaches the API over HTTP, through the typed client (clients/api) only.', {
    folders: folders('db', 'activities', 'workflows', 'workers', 'ingest', 'models', 'bot', 'platform', 'domain', 'scripts', 'bench', 'test'),
    packages: [...nodeBuiltins, 'knex', 'pg', 'express', 'pino', ...TEMPORAL],
    patterns: [
      {
        regex: String.raw`(^|/)clients/(?!api/)|(^|\.\./)api(/|$)`,
        message: 'web/ may use the typed client of this API only, never the server’s code.',
      },
    ],
  }),
  ...layer(
    ['workflows/**/*-starter.ts'],
    'A starter starts its workflow from any process: the Temporal client and contracts only, never stores or workflow code.',
    {
      folders: folders('db', 'api', 'activities', 'clients', 'ingest', 'workers', 'models', 'bot'),
      patterns: [{ group: ['**/*-workflow'], message: 'A starter names its workflow by the contract’s type name.' }],
      noDbDriver: true,
    },
  ),
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
          paths: [...nodeBuiltins, 'knex', 'pg', 'express', 'pino', 'ws', 'zod', '@temporalio/client', '@temporalio/worker', '@temporalio/activity'].map(
            (name) => ({
              name,
              message: 'Workflow code must be deterministic: no I/O or Node built-ins here; do it in an activity.',
            }),
          ),
          patterns: [
            { group: folders('activities'), allowTypeImports: true, message: 'Import activities as types only (proxyActivities<typeof …>).' },
            { group: folders('platform'), allowTypeImports: true, message: 'Workflow code takes configuration as input; it may name platform types only.' },
            { group: ['**/*-starter'], message: 'Starters use the Temporal client: they never enter the workflow bundle.' },
            {
              group: folders('db', 'api', 'clients', 'ingest', 'workers', 'models', 'bot'),
              message: 'Workflow code may import only domain/, workflows/ and @temporalio/workflow.',
            },
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
