import type { WorkerContext } from '../../activities/activity-area';
import { createLiveConsumers } from '../../activities/live/live-consumers';
import { createReadPorts } from '../../db/read-ports';
import { loadConfig } from '../../platform/config';
import { createLogger } from '../../platform/logger';
import type { KnexDb } from '../../db/knex-handle';

/** Tests never reach a public API (the price source, the perps exchanges): a closed local port unless a test names its own server. */
const OFFLINE = {
  PRICE_SOURCE_URL: 'http://127.0.0.1:9/unreachable',
  HYPERLIQUID_API_URL: 'http://127.0.0.1:9/unreachable',
  HYPERLIQUID_WS_URL: 'ws://127.0.0.1:9/unreachable',
  DRIFT_DATA_URL: 'http://127.0.0.1:9/unreachable',
};

/**
 * Tests that run lifecycles without building a corpus first get the empty corpus's prior as a logged score, as the
 * service did before the warming rule; the tests of that rule (and of what a fresh start serves) set the production
 * default back in their `env`.
 */
const WITHOUT_CORPUS = { MODEL_MIN_SERVING_CORPUS: '0' };

/**
 * The context an activity area is built from, without Temporal (enough for the areas that start no workflow:
 * mint, market, accuracy, access), configured by `env` as a process is.
 */
export function areaContext(db: KnexDb, o: { env?: Record<string, string>; now?: () => Date } = {}): Omit<WorkerContext, 'temporal'> {
  const cfg = loadConfig({ ...OFFLINE, ...WITHOUT_CORPUS, ...o.env });
  return {
    cfg,
    db,
    log: createLogger('silent', 'worker-test'),
    now: o.now ?? (() => new Date()),
    liveConsumers: createLiveConsumers(),
    readPorts: createReadPorts(db, cfg),
  };
}
