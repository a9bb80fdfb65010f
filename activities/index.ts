import { accessActivities } from './access';
import { accuracyActivities } from './accuracy';
import { alertsActivities } from './alerts';
import { mergeActivityAreas, type AreaOverrides, type WorkerContext } from './activity-area';
import { createLiveConsumers } from './live/live-consumers';
import { createReadPorts } from '../db/read-ports';
import { billingActivities } from './billing';
import { historyActivities } from './history';
import { ledgerActivities } from './ledger';
import { liveActivities } from './live';
import { marketActivities } from './market';
import { metadataActivities } from './metadata';
import { mintActivities } from './mint';
import { opsActivities } from './ops';
import { signalsActivities } from './signals';
import { walletsActivities } from './wallets';
import { perpsActivities } from './perps';
import { verdictActivities } from './verdict';
import { paperActivities } from './paper';
import { webhooksActivities } from './webhooks';

/** Every area's activities (activities/<area>/index.ts); a new area adds its own here. */
export const ACTIVITY_AREAS = [
  opsActivities,
  marketActivities,
  liveActivities,
  mintActivities,
  accuracyActivities,
  accessActivities,
  billingActivities,
  walletsActivities,
  signalsActivities,
  perpsActivities,
  ledgerActivities,
  verdictActivities,
  historyActivities,
  paperActivities,
  webhooksActivities,
  alertsActivities,
  metadataActivities,
] as const;

export type ActivityOverrides = AreaOverrides<typeof ACTIVITY_AREAS>;

/** Every activity the worker registers, each area built over the one context; a duplicate name stops the worker. */
export const createActivities = (ctx: WorkerContext, overrides: ActivityOverrides = {}) => mergeActivityAreas(ACTIVITY_AREAS, ctx, overrides);
export type Activities = ReturnType<typeof createActivities>['activities'];

/** The areas that register a consumer on the live tick (activities/live/live-consumers.ts), in the worker's order. */
const LIVE_CONSUMER_AREAS = [walletsActivities, signalsActivities, alertsActivities] as const;
export const LIVE_CONSUMER_AREA_NAMES = LIVE_CONSUMER_AREAS.map((a) => a.name);

type LiveTickContext = Pick<WorkerContext, 'cfg' | 'db' | 'log' | 'now'> & Partial<Pick<WorkerContext, 'temporal' | 'liveConsumers' | 'readPorts'>>;

/**
 * The live projector's activities with every area's consumer registered, as the worker runs them, for processes that
 * refresh the live lists without a worker (seeding scripts, benches, tests). Without `liveConsumers` or `readPorts` in
 * the context it gets its own, as a new worker process would.
 */
export function createLiveTick(ctx: LiveTickContext, overrides: AreaOverrides<readonly [typeof liveActivities, ...typeof LIVE_CONSUMER_AREAS]> = {}) {
  const c = { ...ctx, liveConsumers: ctx.liveConsumers ?? createLiveConsumers(), readPorts: ctx.readPorts ?? createReadPorts(ctx.db, ctx.cfg) };
  walletsActivities.create(c, overrides.wallets);
  signalsActivities.create(c, overrides.signals);
  alertsActivities.create(c, overrides.alerts);
  return liveActivities.create(c, overrides.live);
}
