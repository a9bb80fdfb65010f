import { loadConfig } from '../../platform/config';
import { createLogger } from '../../platform/logger';
import { onStopSignal, runProcess } from '../../platform/process-lifecycle';
import { startSimulatedHyperliquid } from './simulated-hyperliquid-server';

/**
 * The development default's exchange as its own process (`npm start` runs it when PERPS_EXCHANGE=simulator): the
 * seeded perps simulator behind Hyperliquid's wire format, and a simulated Drift bucket, on loopback. It lives
 * apart from the worker and the ingest daemon, as a real exchange does, so restarting either of them does not
 * restart the market; a restart of this process starts a new run of the seed's market (positions start over).
 */
async function main() {
  const cfg = loadConfig();
  const log = createLogger(cfg.logLevel, 'perps-exchange');
  if (cfg.perps.exchange !== 'simulator') throw new Error('PERPS_EXCHANGE is not "simulator": there is no simulated exchange to run');
  const started = Date.now();
  const hl = await startSimulatedHyperliquid({
    seed: cfg.perps.simulator.seed,
    wallets: cfg.perps.simulator.wallets,
    port: cfg.perps.simulator.port,
    driftBucket: {},
  });
  log.info(
    {
      url: hl.url,
      wsUrl: hl.wsUrl,
      driftUrl: hl.driftUrl,
      markets: hl.simulator.markets.size,
      wallets: hl.simulator.wallets.length,
      warmupMs: Date.now() - started,
    },
    'simulated perps exchange listening',
  );
  const timer = setInterval(() => log.info({ ...hl.simulator.stats(), connections: hl.connections() }, 'simulated perps exchange'), 60_000);
  onStopSignal(async () => {
    clearInterval(timer);
    await hl.close();
  });
}

runProcess(main);
