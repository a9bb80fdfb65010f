import { PumpEventDecoder } from '../clients/solana/pump/pump-event-decoder';
import { loadPumpIdl } from '../clients/solana/pump/pump-idl';
import { PumpPortalFeed } from './pumpportal/pumpportal-feed';
import { ReplayFeed } from './replay/replay-feed';
import { createSimulatorFeed } from './simulator/simulator-feed';
import { SolanaLogsFeed } from './solana-logs/solana-logs-feed';
import type { LaunchFeed } from './launch-feed';
import type { Config } from '../platform/config';
import type { Logger } from '../platform/logger';

/**
 * The feeds named in INGEST_FEEDS, built from the typed config. Several may run at once. `resumeAfter` gives,
 * per feed name, the last signature an earlier run stored, for feeds that can backfill from it.
 */
export function buildFeeds(cfg: Config, log: Logger, resumeAfter: Record<string, string | null> = {}): LaunchFeed[] {
  return cfg.ingest.feeds.map((name) => {
    switch (name) {
      case 'simulator':
        return createSimulatorFeed({
          seed: cfg.ingest.simulator.seed,
          launchesPerSecond: cfg.ingest.simulator.launchesPerS,
          graduationShare: cfg.ingest.simulator.graduationShare,
          onSinkError: (e, attempt) => log.warn({ err: e, attempt }, 'simulator batch not accepted; retrying'),
          onFailure: (e) => log.error({ err: e }, 'simulator feed failed'),
        });
      case 'replay': {
        if (!cfg.ingest.replayFile) throw new Error('INGEST_FEEDS has replay but REPLAY_FILE is not set');
        return new ReplayFeed({ filePath: cfg.ingest.replayFile, speed: cfg.ingest.replaySpeed, logger: log });
      }
      case 'solana-logs': {
        if (!cfg.ingest.pumpIdlPath) throw new Error('INGEST_FEEDS has solana-logs but PUMP_IDL_PATH (the launchpad IDL) is not set');
        const decoder = new PumpEventDecoder(loadPumpIdl(cfg.ingest.pumpIdlPath));
        return new SolanaLogsFeed({ wsUrl: cfg.ingest.solanaWsUrl, rpcUrl: cfg.ingest.solanaRpcUrl, decoder, logger: log, resumeAfter: resumeAfter[name] });
      }
      case 'pumpportal':
        return new PumpPortalFeed({ url: cfg.ingest.pumpPortalWsUrl, logger: log });
      default:
        throw new Error(`unknown feed in INGEST_FEEDS: ${name} (simulator, replay, solana-logs, pumpportal)`);
    }
  });
}
