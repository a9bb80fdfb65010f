import { createModelFitStore } from '../../db/scoring/model-fit-store';
import { createLedgerCommitStore } from '../../db/ledger/ledger-commit-store';
import { LEDGER_ROW_SOURCES } from '../../db/ledger/ledger-row-sources';
import { auditTrailStatement } from '../../domain/ledger/audit-trail-statement';
import { createCorpusStore } from '../../db/mint/corpus-store';
import { createStatsStore } from '../../db/mint/stats-store';
import { createHeartbeatStore } from '../../db/ops/heartbeat-store';
import { createWatchdogStore } from '../../db/ops/watchdog-store';
import { createFeedStatusReader } from '../../db/ops/feed-status-reader';
import { activeInputs } from '../../domain/ops/active-inputs';
import { seedsSyntheticHistory } from '../../domain/history/synthetic-history-plan';
import { createCompositeStatusReader } from '../../db/signals/composite-status-reader';
import { createSignalStore } from '../../db/signals/signal-store';
import { createWalletReadStore } from '../../db/wallets/wallet-read-store';
import { defineApiArea } from '../api-area';
import { API_SPEC_PATH } from '../api-spec';
import { liveSnapshots } from '../live/live-snapshots';
import { docsRoutes } from './docs-routes';
import { healthRoutes } from './health-routes';
import { scopeRoutes } from './scope-routes';
import { statsRoutes } from './stats-routes';
import { statusRoutes } from './status-routes';

export const opsApi = defineApiArea({
  name: 'ops',
  deps: (ctx) => {
    const modelFitStore = createModelFitStore(ctx.db);
    const { cfg } = ctx;
    return {
      heartbeatStore: createHeartbeatStore(ctx.db),
      watchdogStore: createWatchdogStore(ctx.db),
      liveCache: liveSnapshots(ctx).live,
      liveStaleAfterS: ctx.cfg.live.staleAfterS,
      modelFits: () => modelFitStore.latestFits(),
      feedStatus: createFeedStatusReader(ctx.db),
      inputs: activeInputs({
        feeds: cfg.ingest.feeds,
        seededHistory: seedsSyntheticHistory({
          nodeEnv: cfg.env,
          demoMode: cfg.demoMode,
          feeds: cfg.ingest.feeds,
          launches: cfg.ingest.simulator.historyLaunches,
        }),
        seededSmartWallets: cfg.ingest.feeds.includes('simulator') && cfg.ingest.simulator.seedSmartWallets,
        priceSource: cfg.price.sourceName,
        priceSimulated: cfg.price.simulated,
        perpsExchange: cfg.perps.exchange,
        demoMode: cfg.demoMode,
      }),
      temporalProbe: ctx.temporal?.probe,
      compositeStatus: createCompositeStatusReader(ctx.db, { nativePriceRefreshS: ctx.cfg.price.refreshIntervalS }),
      liveLatency: ctx.liveLatency,
      startedAt: ctx.startedAt,
      version: ctx.version,
      heartbeatIntervalS: ctx.cfg.heartbeatIntervalS,
      watchdogIntervalS: ctx.cfg.watchdog.intervalS,
      expectedDaemons: ctx.cfg.expectedDaemons,
      corpusSummary: () => createCorpusStore(ctx.db).summary(),
      statsStore: createStatsStore(ctx.db),
      walletsIndexed: () => createWalletReadStore(ctx.db).walletsIndexed(),
      signals24h: (since: Date) => createSignalStore(ctx.db).countsSince(since),
      /** The ledger tracks being committed (those with a row source) and their commits so far. */
      auditTrail: async () =>
        auditTrailStatement({
          liveTracks: LEDGER_ROW_SOURCES.map((s) => s.track),
          facts: await createLedgerCommitStore(ctx.db).facts(),
          graceS: ctx.cfg.ledger.graceS,
          anchoring: ctx.cfg.ledger.anchor !== null,
        }),
      /** The models being published now, by `<predictor>@<age>`. */
      modelVersions: async () => Object.fromEntries((await modelFitStore.latestFits()).map((f) => [`${f.predictor}@${f.ageBucket}`, f.version])),
      modelMetrics: async () =>
        Object.fromEntries((await modelFitStore.latestFits()).flatMap((f) => (f.metric ? [[`${f.predictor}@${f.ageBucket}`, f.metric]] : []))),
      now: ctx.now,
      readCacheTtlMs: ctx.cfg.api.readCacheTtlMs,
      publicReads: ctx.publicReads,
      keyedReads: ctx.keyedReads,
    };
  },
  parts: (d) => ({
    pages: docsRoutes(API_SPEC_PATH),
    routes: [healthRoutes(d), statusRoutes(d), scopeRoutes(d), statsRoutes({ ...d, cache: d.liveCache })],
  }),
});
