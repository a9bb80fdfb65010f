import type { Tier } from './tiers';

/**
 * The lowest tier that may call each keyed operation (spec section 8's limits table). Free gets the
 * (5-minute delayed) live list, /probe and /wallet, plus managing its own key; Builder adds runners, smart
 * money, the composite signal and aggregates; wallet-leaderboard discovery and webhooks start at Pro.
 * openapi.yaml repeats each value as `x-min-tier` for clients; a unit test keeps the two equal.
 */
export const OPERATION_MIN_TIER: Readonly<Record<string, Tier>> = {
  getV1Live: 'free',
  probeMint: 'free',
  getV1Wallet: 'free',
  linkWallet: 'free',
  getMe: 'free',
  getCompositeLedger: 'free',
  getSmartMoneyActive: 'builder',
  getRunners: 'builder',
  getSignals: 'builder',
  getCompositePredictions: 'builder',
  getStats: 'builder',
  getConditions: 'builder',
  getLeaderboard: 'pro',
  createWebhook: 'pro',
  listWebhooks: 'pro',
  deleteWebhook: 'pro',
  listWebhookDeliveries: 'pro',
};

/** Free-tier live data is the list as it was this long ago; every paid tier gets it in real time. */
export const FREE_LIVE_DELAY_S = 300;
export const liveDelayFor = (tier: Tier): number => (tier === 'free' ? FREE_LIVE_DELAY_S : 0);

/** Keyed operations not in the table are refused to every tier but the highest, so a new one is never open by accident. */
export const minTierFor = (operationId: string | undefined): Tier => (operationId && OPERATION_MIN_TIER[operationId]) || 'enterprise';

/**
 * Keyed operations that answer even once the key's daily quota is used up: `/api/me` is how a caller reads that
 * usage, so refusing it would hide the one thing it reports. Counted while the quota lasts, like any call.
 */
const ANSWERS_OVER_QUOTA: ReadonlySet<string> = new Set(['getMe']);
export const answersOverQuota = (operationId: string | undefined): boolean => operationId !== undefined && ANSWERS_OVER_QUOTA.has(operationId);
