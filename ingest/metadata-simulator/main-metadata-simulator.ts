import { loadConfig } from '../../platform/config';
import { createLogger } from '../../platform/logger';
import { onStopSignal, runProcess } from '../../platform/process-lifecycle';
import { startSimulatedMetadataServer } from './simulated-metadata-server';

/**
 * The embedded default's IPFS gateway as its own process (`npm start` runs it when METADATA_SOURCE=simulator), apart
 * from the worker as a real gateway is, so the worker's metadata fetcher, its bounds and retries run as in production.
 */
async function main() {
  const cfg = loadConfig();
  const log = createLogger(cfg.logLevel, 'metadata-source');
  const sim = cfg.metadata.simulator;
  if (!sim) throw new Error('METADATA_SOURCE is not "simulator": there is no simulated gateway to serve');
  const server = await startSimulatedMetadataServer({ port: sim.port });
  log.info({ url: server.url }, 'simulated metadata gateway listening');
  onStopSignal(() => server.close());
}

runProcess(main);
