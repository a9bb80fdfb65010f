import { accessActivities } from './access';
import { accuracyActivities } from './accuracy';
import { alertsActivities } from './alerts';
import { mergeActivityAreas, type AreaOverrides, type WorkerContext } from './activity-area';
import { billingActivities } from './billing';
import { historyActivities } from './history';
import { ledgerActivities } from './ledger';
import { liveActivities } from './live';
import { marketActivities } from './market';
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
] as const;

export type ActivityOverrides = AreaOverrides<typeof ACTIVITY_AREAS>;

/** Every activity the worker registers, each area built over the one context; a duplicate name stops the worker. */
export const createActivities = (ctx: WorkerContext, overrides: ActivityOverrides = {}) => mergeActivityAreas(ACTIVITY_AREAS, ctx, overrides);
export type Activities = ReturnType<typeof createActivities>['activities'];
