import { SURVIVAL_GATE } from '../domain/accuracy/survival-gate';
import type { Config } from '../platform/config';
import { createGateStore } from './accuracy/gate-store';
import type { LiveReadSources, SmartMoneySource } from './live/live-read-model';
import { createSmartMoneyLookup } from './wallets/smart-money-lookup';
import type { Db } from './db-handle';

/**
 * Reads an area's read model takes from an area that builds on it, through a port the consuming area declares: the
 * mint states' and the live read model's smart money (the wallets area's index), the enriched mint's survival gate
 * (the accuracy area's). Each process builds these once into its context and hands them to the areas, so neither
 * side imports the other. Each call makes a new lookup: every read model keeps its own cache, as before.
 */
export type ReadPorts = {
  smartMoney(): SmartMoneySource;
  live(): LiveReadSources;
};

export function createReadPorts(handle: Db, cfg: Pick<Config, 'wallets'>): ReadPorts {
  const gates = createGateStore(handle);
  const smartMoney = () => createSmartMoneyLookup(handle, { ttlMs: cfg.wallets.readCacheMs, criteria: cfg.wallets.smart });
  return {
    smartMoney,
    live: () => ({ smartMoney: smartMoney(), survivalLive: async () => (await gates.read(SURVIVAL_GATE.name))?.state === 'live' }),
  };
}
