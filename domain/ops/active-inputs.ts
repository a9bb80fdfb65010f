/**
 * Which inputs this deployment runs on, and which of them are simulated, as /api/scope and /api/health state it:
 * a client reading either can tell a demo on simulated data from the real market without knowing the settings.
 */
export type ActiveInputs = {
  simulated: boolean;
  demo_mode: boolean;
  feeds: { name: string; simulated: boolean }[];
  seeded: { history: boolean; smart_wallets: boolean };
  native_coin_price: { source: string; simulated: boolean };
  perps_exchange: { name: string; simulated: boolean };
};

/** The launch feeds that invent their data (replay plays back recorded real data). */
const SIMULATED_FEEDS = new Set(['simulator']);

export function activeInputs(c: {
  feeds: readonly string[];
  seededHistory: boolean;
  seededSmartWallets: boolean;
  priceSource: string;
  priceSimulated: boolean;
  perpsExchange: string;
  demoMode: boolean;
}): ActiveInputs {
  const feeds = c.feeds.map((name) => ({ name, simulated: SIMULATED_FEEDS.has(name) }));
  const perpsSimulated = c.perpsExchange === 'simulator';
  return {
    simulated: feeds.some((f) => f.simulated) || c.seededHistory || c.seededSmartWallets || c.priceSimulated || perpsSimulated,
    demo_mode: c.demoMode,
    feeds,
    seeded: { history: c.seededHistory, smart_wallets: c.seededSmartWallets },
    native_coin_price: { source: c.priceSource, simulated: c.priceSimulated },
    perps_exchange: { name: c.perpsExchange, simulated: perpsSimulated },
  };
}
