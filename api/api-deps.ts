import { createPriceStore } from '../db/market/price-store';
import { createLiveStore } from '../db/mint/live-store';
import { createMintReadStore } from '../db/mint/mint-read-store';
import { createPredictionStore } from '../db/mint/prediction-store';
import { createStatsStore } from '../db/mint/stats-store';
import { createHeartbeatStore } from '../db/ops/heartbeat-store';
import { createWatchdogStore } from '../db/ops/watchdog-store';
import { LatencyWindow } from '../domain/ops/latency-window';
import type { Knex } from '../platform/db';
import type { Logger } from '../platform/logger';
import type { Metrics } from '../platform/metrics';
import type { ApiDeps } from './app';
import type { PaymentStarter } from '../activities/billing/payment-starter';
import { createBurnStore } from '../db/billing/burn-store';
import { createIntentCreation } from '../db/billing/intent-creation';
import { createPaymentIntentStore } from '../db/billing/payment-intent-store';
import { createPlanKeys } from '../db/billing/plan-keys';
import { createTreasuryStore } from '../db/billing/treasury-store';
import { LIVE_SNAPSHOT } from '../activities/mint/live-projector';
import { createLiveSnapshotCache } from './mint/live-snapshot-cache';

/** Builds every API dependency over one database; used by the server, tests, fuzzing and benchmarks alike. */
export function buildApiDeps(
  db: Knex,
  o: {
    log: Logger;
    metrics: Metrics;
    validateResponses: boolean;
    version: string;
    heartbeatIntervalS: number;
    watchdogIntervalS: number;
    priceRefreshIntervalS: number;
    expectedDaemons: readonly string[];
    now?: () => Date;
    billing?: { treasury?: string; intentWindowS?: number; publicBaseUrl?: string; paymentStarter?: PaymentStarter; holderTokenMint?: string };
  },
): ApiDeps {
  const liveStore = createLiveStore(db);
  const now = o.now ?? (() => new Date());
  return {
    ...o,
    now,
    startedAt: now(),
    liveLatency: new LatencyWindow(5 * 60_000),
    heartbeatStore: createHeartbeatStore(db),
    watchdogStore: createWatchdogStore(db),
    priceStore: createPriceStore(db),
    liveStore,
    liveCache: createLiveSnapshotCache(liveStore, LIVE_SNAPSHOT, 500),
    mintReadStore: createMintReadStore(db),
    predictionStore: createPredictionStore(db),
    statsStore: createStatsStore(db),
    // The corpus is the set of mints this deployment resolved at 24 h.
    corpusSummary: async () => {
      const r = await db('mint_outcomes').select(db.raw('count(*)::int as n'), db.raw('min(resolved_at) as oldest'), db.raw('max(resolved_at) as newest')).first();
      return { resolvedMints: r?.n ?? 0, oldest: r?.oldest ?? null, newest: r?.newest ?? null };
    },
    modelVersions: () => ({}),
    billing: {
      treasury: o.billing?.treasury ?? null,
      intentWindowS: o.billing?.intentWindowS ?? 3600,
      publicBaseUrl: o.billing?.publicBaseUrl ?? 'http://127.0.0.1:8000',
      intentCreation: createIntentCreation(db, createPlanKeys),
      paymentIntentStore: createPaymentIntentStore(db),
      treasuryStore: createTreasuryStore(db),
      planKeys: createPlanKeys(db),
      paymentStarter: o.billing?.paymentStarter ?? null,
      burnStore: createBurnStore(db),
      holderTokenMint: o.billing?.holderTokenMint ?? null,
    },
  };
}
