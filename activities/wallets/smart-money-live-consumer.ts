import { SMART_MONEY_SNAPSHOT, type LiveStore } from '../../db/live/live-store';
import { smartMoneyActive } from '../../domain/wallets/smart-money';
import type { SmartCriteria } from '../../domain/wallets/smart-score';
import { smartMoneyFields } from '../../domain/wallets/wallet-views';
import type { LiveConsumer } from '../live/live-consumers';

/**
 * The smart-money list on the live tick: at every refresh, the listed mints with at least one smart wallet among their
 * top buyers, in smart_money_active's order, written as one snapshot beside the live list that the API serves as is.
 */
export function smartMoneyLiveConsumer(d: { liveStore: Pick<LiveStore, 'writeSnapshot'>; smartCriteria: SmartCriteria }): LiveConsumer {
  return {
    async onRefresh(detailed, now, listed) {
      const shown = new Set(listed.map((m) => m.mint));
      const withSmart = detailed
        .filter((e) => shown.has(e.mint.mint) && e.smartMoney.smartMoneyIn > 0)
        .map((e) => ({
          mint: e.mint.mint,
          gradProb: e.mint.grad_prob,
          smartMoneyIn: e.smartMoney.smartMoneyIn,
          body: { ...e.mint, ...smartMoneyFields(e.smartMoney) },
        }));
      const mints = smartMoneyActive(withSmart, { minSmart: 1, limit: withSmart.length }).map((m) => m.body);
      const version = detailed[0]?.smartMoney.scoreVersion ?? null;
      const body = {
        generated_at: now.toISOString(),
        min_total: d.smartCriteria.minTotal,
        min_smart_score: d.smartCriteria.minScore,
        smart_score_version: version,
        count: mints.length,
        mints,
      };
      await d.liveStore.writeSnapshot(SMART_MONEY_SNAPSHOT, JSON.stringify(body), mints.length, now);
    },
  };
}
