import { loadConfig } from '../../platform/config';
import { createLogger } from '../../platform/logger';
import { onStopSignal, runProcess } from '../../platform/process-lifecycle';
import { startSimulatedPriceServer } from './simulated-price-server';

/**
 * The embedded default's SOL/USD price as its own process (`npm start` runs it when PRICE_SOURCE=simulator): a
 * simulated price behind Jupiter's wire format on loopback. It lives apart from the worker, as the real price API
 * does, so the worker's price refresher, retries and staleness rules run exactly as in production.
 */
async function main() {
  const cfg = loadConfig();
  const log = createLogger(cfg.logLevel, 'price-source');
  const sim = cfg.price.simulator;
  if (!sim) throw new Error('PRICE_SOURCE is not "simulator": there is no simulated price to serve');
  const server = await startSimulatedPriceServer({ seed: sim.seed, port: sim.port });
  log.info({ url: server.url }, 'simulated SOL/USD price listening');
  onStopSignal(() => server.close());
}

runProcess(main);
