import type { MarketConditionsStore } from '../../db/market/market-conditions-store';
import type { ConditionsRefreshResult } from '../../workflows/market/market-conditions-contract';
import { computeConditions, floorHour, historyHours } from '../../domain/market/market-temperature';

export type MarketConditionsDeps = { marketConditionsStore: MarketConditionsStore; conditionsMinHistoryH: number; now: () => Date };

/** Late events (a backfilled gap) land in the last hours, so those are re-rolled on every run. */
const REROLL_RECENT_HOURS = 2;
/** Bounds one run's work on a database that has weeks of trades and no rollups yet; later runs continue. */
const MAX_HOURS_PER_RUN = 48;

export function createMarketConditionsActivities(d: MarketConditionsDeps) {
  return {
    async refreshMarketConditions(): Promise<ConditionsRefreshResult> {
      const store = d.marketConditionsStore;
      const now = d.now();
      const first = await store.firstEventAt();
      const hours = historyHours(now.getTime(), first?.getTime() ?? null);
      const rolled = await store.rolledHours(hours.map((h) => new Date(h)));
      // Newest first, so a fresh deployment's index warms up from the recent past.
      const toRoll = hours
        .filter((h, i) => !rolled.has(h) || i >= hours.length - REROLL_RECENT_HOURS)
        .reverse()
        .slice(0, MAX_HOURS_PER_RUN);
      await store.rollUp(
        toRoll.map((h) => new Date(h)),
        now,
      );

      const history = hours.length ? await store.hourly(new Date(hours[0]!), new Date(floorHour(now.getTime()))) : [];
      const trailing = await store.measureWindows([new Date(now.getTime() - 3_600_000)], 3600);
      const result = computeConditions([...trailing.values()][0]!, history, d.conditionsMinHistoryH);
      if ('warming' in result) {
        await store.save({ computedAt: now, state: 'warming', historyHours: result.historyHours, conditions: null });
        return { state: 'warming', historyHours: result.historyHours, rolledHours: toRoll.length, temperature: null };
      }
      await store.save({ computedAt: now, state: 'ready', historyHours: result.historyHours, conditions: result });
      return { state: 'ready', historyHours: result.historyHours, rolledHours: toRoll.length, temperature: result.temperature };
    },
  };
}
export type MarketConditionsActivities = ReturnType<typeof createMarketConditionsActivities>;
