import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../platform/config';
import { createDb } from '../platform/db';
import { migrateToLatest } from '../db/migrate';
import { watchFirstScores } from './lib/first-scores';
import { ensureDatabase, prepareSupervisedPostgres } from './lib/local-postgres';
import { ensureTemporalCli, launchLocalTemporal, portOpen } from './lib/local-temporal';
import { createProcessOutput, logFileOf, logsDirOf, type OutputMode } from './lib/process-output';
import { waitFor } from './lib/run';
import { listeningService } from './lib/listening-service';
import { nodeEntryService } from './lib/supervised-child';
import { createSupervisor } from './lib/supervisor';
import { SIM_DRIFT_PREFIX } from '../ingest/perps-simulator/sim-drift-bucket';
import { csv } from '../platform/settings/settings';
import { asDb } from '../db/knex-handle';

/**
 * `npm start`: the whole system on one machine. Brings up PostgreSQL (unless DATABASE_URL), the Temporal dev
 * server with its Web UI (unless TEMPORAL_ADDRESS), runs migrations, then the worker, the API, the ingest daemon
 * and (with TELEGRAM_BOT_TOKEN) the messaging bot as child processes, and keeps all of them running: whatever dies is restarted (see lib/supervisor.ts).
 * Ctrl-C or SIGTERM stops everything: the daemons, then Temporal, then PostgreSQL.
 *
 * Switches (for a second stack beside a running one, e.g. `npm run chaos` or a test; with DATA_DIR, API_PORT and
 * WORKER_METRICS_PORT from the environment): --pg-port, --temporal-port, --temporal-ui-port.
 * --output pretty|json: what the processes' output becomes here (lib/process-output.ts). `pretty`, the default on a
 * terminal, prints a short account in plain words; `json`, the default otherwise (production, CI, tests), passes
 * every JSON log line through. Either way every line is in `<data>/logs/<process>.log` (`npm run logs`).
 */
const { values: args } = parseArgs({
  options: {
    'pg-port': { type: 'string', default: '54329' },
    'temporal-port': { type: 'string', default: '7233' },
    'temporal-ui-port': { type: 'string', default: '8233' },
    output: { type: 'string', default: process.stdout.isTTY ? 'pretty' : 'json' },
  },
});
if (args.output !== 'pretty' && args.output !== 'json') throw new Error(`--output must be pretty or json, not ${args.output}`);
const outputMode: OutputMode = args.output;
const port = (name: keyof typeof args) => {
  const n = Number(args[name]);
  if (!Number.isInteger(n) || n <= 0 || n > 65535) throw new Error(`--${name} must be a port number, not ${args[name]}`);
  return n;
};
const LAYER = { postgres: 0, temporal: 1, daemons: 2 };

/**
 * The development default's perps exchange: the simulator, unless PERPS_EXCHANGE says otherwise (production's
 * configuration never names the simulator, so it never runs there). With it, exchange_a reads the simulator's Drift
 * bucket and the worker imports the configured range at start, unless DRIFT_DATA_URL points elsewhere.
 */
function perpsEnv(port: number): Record<string, string> {
  const exchange = process.env.PERPS_EXCHANGE || 'simulator';
  if (exchange !== 'simulator') return { PERPS_EXCHANGE: exchange };
  return {
    PERPS_EXCHANGE: exchange,
    DRIFT_DATA_URL: process.env.DRIFT_DATA_URL || `http://127.0.0.1:${port}${SIM_DRIFT_PREFIX.replace(/\/$/, '')}`,
    PERPS_IMPORT_ON_START: process.env.PERPS_IMPORT_ON_START || 'true',
  };
}

/**
 * The development default's SOL/USD price: simulated (ingest/price-simulator) when every launch feed is the
 * simulator and no price source is configured, since a simulated market needs no real price and an offline machine
 * cannot reach one; otherwise the configured source (Jupiter unless PRICE_SOURCE/PRICE_SOURCE_URL say otherwise).
 */
function priceEnv(): Record<string, string> {
  if (process.env.PRICE_SOURCE || process.env.PRICE_SOURCE_URL) return {};
  return csv(process.env.INGEST_FEEDS || 'simulator').every((f) => f === 'simulator') ? { PRICE_SOURCE: 'simulator' } : {};
}

/**
 * The development default's launch metadata: the simulated IPFS gateway (ingest/metadata-simulator) when every
 * launch feed is the simulator and no metadata source is configured, since the simulator's launches name `ipfs://`
 * URIs only it can answer and an offline machine reaches no real gateway.
 */
function metadataEnv(): Record<string, string> {
  if (process.env.METADATA_SOURCE || process.env.METADATA_IPFS_GATEWAY) return {};
  return csv(process.env.INGEST_FEEDS || 'simulator').every((f) => f === 'simulator') ? { METADATA_SOURCE: 'simulator' } : {};
}

async function main() {
  const startedAt = new Date();
  const cfg = loadConfig({ ...process.env, PERPS_EXCHANGE: process.env.PERPS_EXCHANGE || 'simulator', ...priceEnv(), ...metadataEnv() });
  const root = path.resolve(__dirname, '..');
  const dataDir = path.resolve(root, cfg.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const supervisor = createSupervisor();
  const output = createProcessOutput({ mode: outputMode, dataDir });
  let firstScores: { stop: () => void } | undefined;

  let stopping = 0;
  const shutdown = async (why: string, code: number) => {
    if (stopping) {
      // Under `npm start` the tsx CLI relays the terminal's Ctrl-C a moment after we got it ourselves.
      if (Date.now() - stopping > 1000)
        console.log(
          `• already stopping (${why}); waiting for ${
            supervisor
              .status()
              .filter((s) => s.pid)
              .map((s) => s.name)
              .join(', ') || 'the last process'
          } …`,
        );
      return;
    }
    stopping = Date.now();
    firstScores?.stop();
    console.log(`• ${why}: stopping everything …`);
    await supervisor.stop();
    await output.close();
    console.log('• stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown('SIGINT', 0));
  process.on('SIGTERM', () => void shutdown('SIGTERM', 0));
  // The children run in their own process groups and would outlive us: a bug here still stops them.
  process.on('uncaughtException', (e) => {
    console.error(e);
    void shutdown('internal error in npm start', 1);
  });

  try {
    let databaseUrl = cfg.databaseUrl;
    if (!databaseUrl) {
      console.log('• starting local PostgreSQL …');
      const pg = await prepareSupervisedPostgres(dataDir, 'dev', port('pg-port'), { logFile: logFileOf(dataDir, 'postgres') });
      if (pg.alreadyRunning) console.log(`• PostgreSQL already answers on port ${port('pg-port')}: using it (not started here, so not supervised)`);
      else {
        await supervisor.start({ name: 'postgres', layer: LAYER.postgres, start: pg.launch });
        console.log(`• PostgreSQL is up on 127.0.0.1:${port('pg-port')}`);
      }
      await ensureDatabase(pg.url('postgres'), 'launchpad');
      databaseUrl = pg.url('launchpad');
    }
    const db = asDb(createDb(databaseUrl, 2));
    const applied = await migrateToLatest(db).finally(() => db.destroy());
    console.log(`• database ready (${applied.length} migration(s) applied)`);

    let temporalAddress = cfg.temporal.address;
    let temporalUi: string | undefined;
    if (!temporalAddress) {
      const opts = {
        port: port('temporal-port'),
        uiPort: port('temporal-ui-port'),
        dbFile: path.join(dataDir, 'temporal', 'dev.db'),
        logFile: logFileOf(dataDir, 'temporal'),
      };
      temporalAddress = `127.0.0.1:${opts.port}`;
      temporalUi = `http://127.0.0.1:${opts.uiPort}`;
      if (await portOpen(opts.port)) console.log(`• Temporal already answers on ${temporalAddress}: using it (not started here, so not supervised)`);
      else {
        console.log('• starting Temporal dev server …');
        const cli = await ensureTemporalCli((line) => console.log(`• ${line}`));
        await supervisor.start({ name: 'temporal', layer: LAYER.temporal, start: () => launchLocalTemporal(cli, opts, { detached: true }) });
        console.log(`• Temporal is up on ${temporalAddress} (Web UI ${temporalUi})`);
      }
    }

    const env = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress,
      EXPECTED_DAEMONS: process.env.EXPECTED_DAEMONS ?? 'api,worker,ingest',
      LOG_LEVEL: cfg.logLevel,
      ...perpsEnv(cfg.perps.simulator.port),
      ...priceEnv(),
      ...metadataEnv(),
    };
    // The simulated exchange and price source before the worker and ingest, which poll them; supervised like them,
    // and up only once they listen.
    if (cfg.perps.exchange === 'simulator') {
      await supervisor.start({
        name: 'perps-exchange',
        layer: LAYER.daemons,
        start: () => listeningService('ingest/perps-simulator/main-perps-simulator.ts', env, cfg.perps.simulator.port, { sink: output.sink('perps-exchange') }),
      });
    }
    if (cfg.price.simulator) {
      await supervisor.start({
        name: 'price-source',
        layer: LAYER.daemons,
        start: () => listeningService('ingest/price-simulator/main-price-simulator.ts', env, cfg.price.simulator!.port, { sink: output.sink('price-source') }),
      });
    }
    if (cfg.metadata.simulator) {
      await supervisor.start({
        name: 'metadata-source',
        layer: LAYER.daemons,
        start: () =>
          listeningService('ingest/metadata-simulator/main-metadata-simulator.ts', env, cfg.metadata.simulator!.port, { sink: output.sink('metadata-source') }),
      });
    }
    const daemons: [string, string][] = [
      ['worker', 'workers/main-worker.ts'],
      ['api', 'api/server.ts'],
      ['ingest', 'ingest/main-ingest.ts'],
    ];
    // The messaging bot only with a token: without one it would have nothing to receive.
    if (cfg.messaging.telegramBotToken) daemons.push(['bot', 'bot/main-bot.ts']);
    for (const [name, entry] of daemons) {
      await supervisor.start({ name, layer: LAYER.daemons, start: async () => nodeEntryService(entry, env, { sink: output.sink(name) }) });
    }
    if (cfg.api.standby) {
      // The same API once more on the same port: it waits for the port and takes it over the moment the serving one
      // dies (platform/net/listen-when-free.ts), so a crash costs clients milliseconds, not a cold start. The one
      // restarted then waits in its turn. `--standby` only tells the two apart in the process table.
      await supervisor.start({
        name: 'api-standby',
        layer: LAYER.daemons,
        start: async () => nodeEntryService('api/server.ts', env, { sink: output.sink('api-standby'), args: ['--standby'] }),
      });
    }

    // Any answer will do: /api/health may well say "degraded" while the worker warms up.
    const apiUrl = `http://${cfg.api.host}:${cfg.api.port}`;
    const answers = async () => (await fetch(`${apiUrl}/api/health`)).status > 0;
    await waitFor('the API', answers, 120_000).catch(async () => {
      console.error(`• the API has not answered on ${apiUrl} within 120 s; still trying (see the messages above)`);
      await waitFor('the API', answers, Infinity);
    });
    console.log(`
  API              ${apiUrl}
  Interactive docs ${apiUrl}/docs
  Live list        ${apiUrl}/api/live   (simulated launches by default; scores appear at 30 s and 60 s of age)
  Perps            ${apiUrl}/api/perps/observatory   (${cfg.perps.exchange === 'simulator' ? `the simulated exchange on 127.0.0.1:${cfg.perps.simulator.port}` : cfg.perps.apiUrl})
  SOL/USD price    ${cfg.price.simulator ? `simulated (synthetic), served in Jupiter's format on 127.0.0.1:${cfg.price.simulator.port}` : cfg.price.sourceUrl}
  Launch metadata  ${cfg.metadata.simulator ? `simulated (synthetic), an IPFS gateway on 127.0.0.1:${cfg.metadata.simulator.port}` : cfg.metadata.ipfsGateway}
  Health           ${apiUrl}/api/health
  Temporal UI      ${temporalUi ?? '(external Temporal at ' + temporalAddress + ')'}
  Metrics          http://${cfg.api.metrics.host}:${cfg.api.metrics.port}/metrics (API), http://${cfg.api.host}:${cfg.workerMetricsPort}/metrics (worker)
  Logs             ${path.relative(process.cwd(), logsDirOf(dataDir)) || '.'}/<api|worker|ingest|bot|perps-exchange|price-source|metadata-source|temporal|postgres>.log   (npm run logs -- [name] [-f])
  Whatever stops is restarted. Press Ctrl-C to stop everything.
`);
    firstScores = watchFirstScores(apiUrl, (line) => console.log(`• ${line}`), { since: startedAt });
  } catch (e) {
    if (stopping) return; // a Ctrl-C during start-up: shutdown() is already at work
    console.error(e);
    await shutdown('start-up failed', 1);
  }
}

void main();
