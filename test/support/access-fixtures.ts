import { createLiveStore, LIVE_DELAYED_SNAPSHOT, LIVE_SNAPSHOT } from '../../db/live/live-store';
import type { KnexDb } from '../../db/knex-handle';

/** An empty live list (real-time and delayed) so `/api/v1/live` answers 200 without running the projector. */
export async function writeEmptyLiveSnapshots(db: KnexDb, builtAt: Date, o: { delayed?: boolean } = {}): Promise<void> {
  const store = createLiveStore(db);
  const list = (delay: number, at: Date) =>
    JSON.stringify({ generated_at: at.toISOString(), refresh_interval_s: 2, delay_s: delay, total_tracked: 0, count: 0, mints: [] });
  await store.writeSnapshot(LIVE_SNAPSHOT, list(0, builtAt), 0, builtAt);
  if (o.delayed !== false) {
    const old = new Date(builtAt.getTime() - 300_000);
    await store.writeSnapshot(LIVE_DELAYED_SNAPSHOT, list(300, old), 0, old);
  }
}

/** One valid request per keyed operation, so each reaches its key, tier and quota checks. */
export const KEYED_REQUESTS: Record<string, { method: string; path: string; template: string; body?: unknown }> = {
  getV1Live: { method: 'GET', path: '/api/v1/live', template: '/api/v1/live' },
  probeMint: { method: 'GET', path: '/api/v1/probe/So11111111111111111111111111111111111111112', template: '/api/v1/probe/{mint}' },
  getV1Wallet: { method: 'GET', path: '/api/v1/wallet/9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', template: '/api/v1/wallet/{address}' },
  linkWallet: {
    method: 'POST',
    path: '/api/v1/wallet/link',
    template: '/api/v1/wallet/link',
    body: { wallet: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', signature_b58: '1'.repeat(64), key_prefix: 'lp_live_1111111111' },
  },
  getMe: { method: 'GET', path: '/api/me', template: '/api/me' },
  getSmartMoneyActive: { method: 'GET', path: '/api/v1/smart_money_active', template: '/api/v1/smart_money_active' },
  getRunners: { method: 'GET', path: '/api/v1/runners', template: '/api/v1/runners' },
  getSignals: { method: 'GET', path: '/api/v1/signals', template: '/api/v1/signals' },
  getCompositePredictions: { method: 'GET', path: '/api/v1/composite_predictions', template: '/api/v1/composite_predictions' },
  getCompositeLedger: { method: 'GET', path: '/api/v1/composite_ledger', template: '/api/v1/composite_ledger' },
  getStats: { method: 'GET', path: '/api/v1/stats', template: '/api/v1/stats' },
  getConditions: { method: 'GET', path: '/api/v1/conditions', template: '/api/v1/conditions' },
  getLeaderboard: { method: 'GET', path: '/api/v1/wallets/leaderboard', template: '/api/v1/wallets/leaderboard' },
  createWebhook: { method: 'POST', path: '/api/v1/webhooks', template: '/api/v1/webhooks', body: { url: 'https://example.com/hook', events: '*' } },
  listWebhooks: { method: 'GET', path: '/api/v1/webhooks', template: '/api/v1/webhooks' },
  deleteWebhook: { method: 'DELETE', path: '/api/v1/webhooks/1', template: '/api/v1/webhooks/{webhook_id}' },
  listWebhookDeliveries: { method: 'GET', path: '/api/v1/webhooks/deliveries', template: '/api/v1/webhooks/deliveries' },
};
