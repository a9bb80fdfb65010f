import { ApplicationFailure } from '@temporalio/activity';
import type { PerpsEntryStore } from '../../db/perps/perps-entry-store';
import type { PerpsMarketStore } from '../../db/perps/perps-market-store';
import { judgeEntry } from '../../domain/perps/entry-judging';
import type { PerpsHorizon } from '../../domain/perps/perps-types';
import type { EntryJudgingStarter } from '../../workflows/perps/perps-entry-judging-starter';
import type { HorizonOutcome, JudgingHorizon } from '../../workflows/perps/perps-entry-judging-contract';

export type PerpsJudgingDeps = {
  entryStore: PerpsEntryStore;
  marketStore: PerpsMarketStore;
  judgingStarter: EntryJudgingStarter;
  /** When each horizon falls due after detection (5 m, 1 h, 24 h; tests shorten them). */
  judgingHorizons: JudgingHorizon[];
  now: () => Date;
};

/** Smart entries whose judging workflow is started per sweep (the rest wait for the next one). */
const START_PER_CALL = 500;

export function createPerpsJudgingActivities(d: PerpsJudgingDeps) {
  return {
    /**
     * Starts the judging workflow of every smart entry that has none yet (the outbox the snapshot transaction
     * fills), then marks them: a crash between the two starts nothing twice (the workflow id is the entry's).
     */
    async startPerpsJudging(): Promise<{ started: number }> {
      const list = await d.entryStore.unjudgedSmartEntries(START_PER_CALL);
      for (const e of list) await d.judgingStarter.start(e.id, e.detectedAt, d.judgingHorizons);
      await d.entryStore.markJudgingStarted(
        list.map((e) => e.id),
        d.now(),
      );
      return { started: list.length };
    },

    /**
     * Judges one entry at one horizon from the first mark-price sample at or after its due time (the markets
     * poll writes one per period). Until that sample exists the activity fails and is retried; a judgment is
     * recorded once, with the sums it adds to.
     */
    async judgePerpsEntryAt(input: { entryId: number; horizon: PerpsHorizon; dueAt: string }): Promise<HorizonOutcome> {
      const e = await d.entryStore.entry(input.entryId);
      if (!e) throw ApplicationFailure.nonRetryable(`unknown perps entry ${input.entryId}`, 'UnknownPerpsEntry');
      const dueAt = new Date(input.dueAt);
      const sample = await d.marketStore.firstMarkAtOrAfter(e.exchange, e.market, dueAt);
      if (!sample) throw ApplicationFailure.retryable(`no ${e.market} mark sampled at or after ${input.dueAt} yet`, 'MarkNotSampledYet');
      const j = judgeEntry({ side: e.side, priceAtDetection: e.priceAtDetection, detectedAt: e.detectedAt.getTime() }, input.horizon, sample.price);
      const recorded = await d.entryStore.recordJudgment(e, {
        horizon: input.horizon,
        dueAt,
        price: sample.price,
        priceAt: sample.at,
        moveBps: j.moveBps,
        win: j.win,
        judgedAt: d.now(),
      });
      return { horizon: input.horizon, status: 'judged', price: sample.price, moveBps: j.moveBps, win: j.win, firstTime: recorded };
    },
  };
}
export type PerpsJudgingActivities = ReturnType<typeof createPerpsJudgingActivities>;
