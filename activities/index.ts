import { createPriceActivities, type PriceDeps } from './market/price-activities';
import { createWatchdogActivities, type WatchdogDeps } from './ops/watchdog-activities';

export type ActivityDeps = WatchdogDeps & PriceDeps;

/** Every activity the worker registers, built from injected dependencies. */
export function createActivities(d: ActivityDeps) {
  return { ...createWatchdogActivities(d), ...createPriceActivities(d) };
}
