import { seedSimulatedSmartWallets } from '../../db/wallets/simulated-wallet-seed';
import { defineIngestArea } from '../ingest-area';
import { simulatedSmartWallets } from '../simulator/simulated-smart-wallets';

/** The wallets area in ingest: with the simulator, its smart wallets are in the wallet index from the start. */
export const walletsIngest = defineIngestArea({
  name: 'wallets',
  parts: ({ cfg, db, log, now }) => ({
    prepare: async () => {
      if (!cfg.ingest.feeds.includes('simulator') || !cfg.ingest.simulator.seedSmartWallets) return;
      const n = await seedSimulatedSmartWallets(db, simulatedSmartWallets(cfg.ingest.simulator.seed), now());
      log.info({ seeded: n }, 'simulator smart wallets in the wallet index');
    },
  }),
});
