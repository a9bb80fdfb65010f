/**
 * The name rows and answers carry for the live exchange. The simulator speaks Hyperliquid's wire format but its
 * data is not Hyperliquid's: it is stored and served under its own name, so simulated entries can never pass for
 * real ones (in the observatory, or in a ledger leaf).
 */
export const HYPERLIQUID = 'hyperliquid';
export const HYPERLIQUID_SIMULATOR = 'hyperliquid-sim';
export const EXCHANGE_A = 'exchange_a';

export function perpsExchangeName(configured: 'hyperliquid' | 'simulator'): string {
  return configured === 'simulator' ? HYPERLIQUID_SIMULATOR : HYPERLIQUID;
}
