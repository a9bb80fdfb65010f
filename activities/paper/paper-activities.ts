import type { PriceClient } from '../../clients/jupiter-price-client';
import type { LiveReadModel } from '../../db/live/live-read-model';
import type { MintReadStore } from '../../db/mint/mint-read-store';
import type { PaperPositionStore } from '../../db/paper/paper-position-store';
import { isCurveComplete } from '../../domain/paper/curve-fill';
import { curveTapeDown } from '../../domain/paper/curve-source';
import { decideEntry } from '../../domain/paper/entry-rules';
import { applyExitDecision, evaluateExit } from '../../domain/paper/exit-rules';
import { PAPER_STRATEGIES, type PaperConfig } from '../../domain/paper/paper-config';
import type { PaperPosition, Quote, SeenQuote } from '../../domain/paper/paper-position';
import type { Logger } from '../../platform/logger';
import type { PaperPositionStarter } from '../../workflows/paper/paper-position-starter';
import type { PaperEntriesResult } from '../../workflows/paper/paper-entries-contract';
import type { PaperPricerResult } from '../../workflows/paper/paper-pricer-contract';
import { paperPositionWorkflowId } from '../../workflows/paper/paper-position-contract';

export type PaperDeps = {
  paperStore: PaperPositionStore;
  mintReadStore: MintReadStore;
  readModel: LiveReadModel;
  dexPriceClient: PriceClient;
  positionStarter: PaperPositionStarter;
  paperConfig: PaperConfig;
  entryMaxDelayS: number;
  /** The curve gives no price while the ingest's trade tape has brought nothing for this long (domain/paper/curve-source.ts). */
  tapeMaxLagS: number;
  log: Logger;
  now: () => Date;
};

const MIN_THRESHOLD = Math.min(...PAPER_STRATEGIES.map((s) => s.threshold));
const STRATEGY_IDS = PAPER_STRATEGIES.map((s) => s.id);

export function createPaperActivities(d: PaperDeps) {
  /** The enriched mint exactly as the lists serve it now (the probe's fields with the address), stored with the position. */
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
            await d.positionStarter.start(p.id, p.position);
            await d.paperStore.markStarted(p.id, d.now());
            started++;
          }),
        );
      }
      if (entered > 0) d.log.info({ entered, decided, started }, 'paper entries');
      return { entered, decided, started };
    },

    /**
     * One pricing round over every open position: the curve's reserves after each mint's last trade while its curve
     * is open (none while the ingest's trade tape is down), the DEX price once it has completed (null while the DEX has
     * no price, or when the source fails): without a price the exit rules wait, and close as stale_price past the
     * limit. Each position is judged by the exit rules; a hold stores the usable quote as its mark (one statement for
     * all), an exit is signalled to the position's workflow, which writes it.
     */
    async pricePaperPositions(): Promise<PaperPricerResult> {
      const now = d.now();
      const open = await d.paperStore.openPositions();
      if (!open.length) return { open: 0, quoted: 0, closed: 0, unpriced: 0 };
      const mints = [...new Set(open.map((p) => p.position.mint))];
      const [reserves, graduated, tapeAt] = await Promise.all([
        d.paperStore.latestReserves(mints, now),
        d.paperStore.graduatedOf(mints),
        d.paperStore.tapeLastEventAt(),
      ]);
      const tapeDown = curveTapeDown(tapeAt?.getTime() ?? null, now.getTime(), d.tapeMaxLagS);
      if (tapeDown) d.log.warn({ lastEventAt: tapeAt, maxLagS: d.tapeMaxLagS }, 'paper: the trade tape is down, no curve prices this round');
      const dex = new Map<string, number | null>();
      const onDex = mints.filter((m) => graduated.has(m) || (reserves.has(m) && isCurveComplete(reserves.get(m)!)));
      for (let i = 0; i < onDex.length; i += 10) {
        await Promise.all(
          onDex.slice(i, i + 10).map(async (m) => {
            try {
              dex.set(m, await d.dexPriceClient.tokenPriceSol(m));
            } catch (err) {
              dex.set(m, null);
              d.log.warn({ mint: m, error: (err as Error).message }, 'paper: no DEX price this round');
            }
          }),
        );
      }
      const marks: { id: number; quote: SeenQuote }[] = [];
      let closed = 0;
      let unpriced = 0;
      for (const p of open) {
        const mint = p.position.mint;
        const atMs = Math.max(now.getTime(), p.position.lastQuote.atMs);
        let quote: Quote | null = null;
        if (dex.has(mint)) {
          const price = dex.get(mint);
          quote = price ? { kind: 'dex', priceSol: price } : null;
        } else if (reserves.has(mint) && !tapeDown) quote = { kind: 'curve', reserves: reserves.get(mint)! };
        if (!quote) unpriced++;
        try {
          const decision = evaluateExit(p.position, { atMs, quote }, p.config);
          if (decision.action === 'close') {
            await d.positionStarter.close(applyExitDecision(p.position, decision));
            closed++;
          } else if (quote) marks.push({ id: p.id, quote: { atMs, quote } });
        } catch (err) {
          // One position that cannot be judged must not stop the others' exits.
          d.log.error({ positionId: p.id, error: (err as Error).message }, 'paper: position not priced');
        }
      }
      await d.paperStore.recordQuotes(marks);
      return { open: open.length, quoted: marks.length, closed, unpriced };
    },

    async closePaperPosition(input: { positionId: number; position: PaperPosition }): Promise<{ closed: boolean }> {
      return { closed: await d.paperStore.close(input.positionId, input.position) };
    },
  };
}
export type PaperActivities = ReturnType<typeof createPaperActivities>;
