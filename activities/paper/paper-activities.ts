import type { PriceClient } from '../../clients/jupiter-price-client';
import type { LiveReadModel } from '../../db/mint/live-read-model';
import type { MintReadStore } from '../../db/mint/mint-read-store';
import type { PaperPositionStore } from '../../db/paper/paper-position-store';
import { isCurveComplete } from '../../domain/paper/curve-fill';
import { decideEntry } from '../../domain/paper/entry-rules';
import { PAPER_STRATEGIES, type PaperConfig } from '../../domain/paper/paper-config';
import type { PaperPosition, Quote } from '../../domain/paper/paper-position';
import type { Logger } from '../../platform/logger';
import type { PaperPositionStarter } from '../../workflows/paper/paper-position-starter';
import type { PaperEntriesResult } from '../../workflows/paper/paper-entries-contract';
import { paperPositionWorkflowId } from '../../workflows/paper/paper-position-contract';

export type PaperDeps = {
  paperStore: PaperPositionStore;
  mintReadStore: MintReadStore;
  readModel: LiveReadModel;
  dexPriceClient: PriceClient;
  positionStarter: PaperPositionStarter;
  paperConfig: PaperConfig;
  entryMaxDelayS: number;
  log: Logger;
  now: () => Date;
};

const MIN_THRESHOLD = Math.min(...PAPER_STRATEGIES.map((s) => s.threshold));
const STRATEGY_IDS = PAPER_STRATEGIES.map((s) => s.id);

export function createPaperActivities(d: PaperDeps) {
  /** The enriched mint exactly as the API serves it now (the probe's body), stored with the position. */
  async function entrySnapshot(mint: string, now: Date): Promise<unknown> {
    const row = await d.mintReadStore.getMint(mint);
    if (!row) return null;
    const [enriched] = await d.readModel.enriched([row], now);
    // Through JSON, as res.json would send it: Dates become ISO strings, undefined fields disappear.
    return enriched ? JSON.parse(JSON.stringify(enriched)) : null;
  }

  return {
    /**
     * One round of the entry loop: each 30 s / 60 s score of the last `entryMaxDelayS` that some strategy has not
     * judged is judged under that strategy's lock (entries of a strategy are serialised, so the cash check holds),
     * filled on the curve at the reserves of the score's moment; then the workflow of every position not started
     * yet is started (an outbox: a crash between the insert and the start loses nothing).
     */
    async takePaperEntries(): Promise<PaperEntriesResult> {
      const now = d.now();
      const since = new Date(now.getTime() - d.entryMaxDelayS * 1000);
      const candidates = await d.paperStore.entryCandidates(since, MIN_THRESHOLD, STRATEGY_IDS, 200);
      let entered = 0;
      let decided = 0;
      for (const c of candidates) {
        const reserves = await d.paperStore.reservesAt(c.mint, c.asOf);
        if (!reserves) continue;
        let snapshot: unknown;
        for (const strategy of PAPER_STRATEGIES) {
          if (c.decided.includes(strategy.id)) continue;
          // Built once per score and only for a strategy the score can enter (outside the lock: it reads a lot).
          if (snapshot === undefined && c.gradProb >= strategy.threshold) snapshot = await entrySnapshot(c.mint, now);
          await d.paperStore.withStrategyLock(strategy.id, async (tx) => {
            if (await tx.decided(c.predictionId)) return;
            const decision = decideEntry(
              strategy,
              { mint: c.mint, ageS: c.ageBucket, gradProb: c.gradProb, mayhem: false, atMs: c.asOf.getTime(), reserves },
              { alreadyEntered: await tx.alreadyEntered(c.mint), cashLamports: await tx.cashLamports(d.paperConfig.bankrollLamports) },
              d.paperConfig,
            );
            let positionId: number | null = null;
            if (decision.enter) {
              if (snapshot === null || snapshot === undefined) throw new Error(`no enriched record for ${c.mint}: cannot store the entry snapshot`);
              positionId = await tx.insertPosition({
                workflowId: paperPositionWorkflowId(strategy.id, c.mint),
                predictionId: c.predictionId,
                threshold: strategy.threshold,
                position: decision.position,
                config: d.paperConfig,
                entrySnapshot: snapshot,
              });
              entered++;
            }
            await tx.recordDecision(c.predictionId, decision.enter ? 'entered' : decision.reason, positionId, now);
            decided++;
          });
        }
      }
      let started = 0;
      const unstarted = await d.paperStore.unstarted(100);
      // A few starts at a time: each is a round trip to Temporal, and a burst of entries should not wait in line.
      for (let i = 0; i < unstarted.length; i += 10) {
        await Promise.all(
          unstarted.slice(i, i + 10).map(async (p) => {
            await d.positionStarter.start(p.id, p.position, p.config);
            await d.paperStore.markStarted(p.id, d.now());
            started++;
          }),
        );
      }
      if (entered > 0) d.log.info({ entered, decided, started }, 'paper entries');
      return { entered, decided, started };
    },

    /**
     * The position's quote now: the curve's reserves after its last trade while the curve is open, the DEX price
     * once it has completed (null while the DEX has no price yet). A price source that fails fails the activity,
     * which the workflow takes as no quote. A usable quote is stored as the position's mark.
     */
    async quotePaperPosition(input: { positionId: number; mint: string; atMs: number }): Promise<Quote | null> {
      const at = new Date(input.atMs);
      const [graduatedAt, reserves] = await Promise.all([d.paperStore.graduatedAt(input.mint), d.paperStore.reservesAt(input.mint, at)]);
      let quote: Quote | null;
      if (!graduatedAt && reserves && !isCurveComplete(reserves)) quote = { kind: 'curve', reserves };
      else {
        const priceSol = await d.dexPriceClient.tokenPriceSol(input.mint);
        quote = priceSol === null ? null : { kind: 'dex', priceSol };
      }
      if (quote) await d.paperStore.recordQuote(input.positionId, { atMs: input.atMs, quote });
      return quote;
    },

    async closePaperPosition(input: { positionId: number; position: PaperPosition }): Promise<{ closed: boolean }> {
      return { closed: await d.paperStore.close(input.positionId, input.position) };
    },
  };
}
export type PaperActivities = ReturnType<typeof createPaperActivities>;
