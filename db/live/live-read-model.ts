import { creatorRecord } from '../../domain/launch/creator-record';
import { enrichMint, type EnrichedMint, type RunnerOddsFrom } from '../../domain/live/enriched-mint';
import { LABEL_VERSION } from '../../domain/launch/outcome-labels';
import { topBuyerWallets } from '../../domain/launch/mint-signals';
import { smartScoresByPrefix, type SmartMoney, type TopBuyerRef } from '../../domain/live/mint-smart-money';
import { createMintMetadataStore } from '../metadata/mint-metadata-store';
import { createPriceStore } from '../market/price-store';
import { createCreatorStore } from '../mint/creator-store';
import { createLiveStore } from './live-store';
import type { MintRow } from '../mint/mint-read-store';
import { createMintStates, type MintState } from '../mint/mint-states';
import type { Db } from '../db-handle';

/** Smart money of each mint's top buyers, looked up by their full addresses. */
export type SmartMoneySource = { smartMoney(topBuyers: ReadonlyMap<string, readonly TopBuyerRef[]>): Promise<Map<string, SmartMoney>> };

/**
 * What the enriched mint takes from other areas: the wallet index's smart money and the accuracy area's survival gate.
 * The live area imports neither; whoever builds the read model passes them in (db/read-ports.ts wires the real ones).
 */
export type LiveReadSources = {
  smartMoney: SmartMoneySource;
  /** Whether the post-graduation survival figures are served (the survival gate is live). */
  survivalLive(): Promise<boolean>;
};

/**
 * The one place the enriched mint (openapi `EnrichedMint`) is assembled from Postgres: tape, buyer freshness,
 * creator record, latest prediction, SOL price and the survival gate. `enriched` loads any set of mints (the probe;
 * signals, alerts and webhooks later); the live projector keeps the states in memory (incremental-live-model.ts)
 * and has them enriched here; scoring reads the same state as of its moment (db/mint/mint-states.ts).
 */
export function createLiveReadModel(handle: Db, sources: LiveReadSources) {
  const mintStates = createMintStates(handle);
  const live = createLiveStore(handle);
  const creators = createCreatorStore(handle);
  const prices = createPriceStore(handle);
  const metadata = createMintMetadataStore(handle);

  /**
   * The enriched record of each state as of `now`, with its smart money. `ownOutcomes`: a mint old enough to be
   * resolved is not part of its own creator's record (the probe); live mints are younger than the 24 h horizon, so
   * the projector skips it. `runnerFromNow`: the live refresh's odds from each mint's current price, when it has them.
   */
  async function enrichWithSmartMoney(
    states: readonly MintState[],
    now: Date,
    o: { ownOutcomes: boolean; runnerFromNow?: (s: MintState) => RunnerOddsFrom | null },
  ): Promise<{ mint: EnrichedMint; smartMoney: SmartMoney }[]> {
    const mints = states.map((s) => s.row.mint);
    const tops = new Map(states.map((s) => [s.row.mint, topBuyerWallets(s.tape)]));
    const creatorIds = [...new Set(states.map((s) => s.row.creator))];
    const [, aggregates, own, predictions, price, survivalLive, smart, launches, quality] = await Promise.all([
      mintStates.learnFreshness(states),
      creators.aggregates(creatorIds, LABEL_VERSION),
      o.ownOutcomes ? creators.ownOutcomes(mints, LABEL_VERSION) : new Map(),
      live.latestPredictions(mints),
      prices.latestQuote('SOL'),
      sources.survivalLive(),
      // Smart money (smart_money_in, top_buyers[].smart_score) from the wallet index, by the top buyers' full addresses.
      sources.smartMoney.smartMoney(tops),
      creators.launchCounts(creatorIds),
      metadata.quality(mints),
    ]);
    return states.map((s) => {
      const sm = smart.get(s.row.mint)!;
      const mint = enrichMint({
        tape: s.tape,
        now,
        prediction: predictions.get(s.row.mint) ?? null,
        creator: creatorRecord(aggregates.get(s.row.creator) ?? null, own.get(s.row.mint) ?? null),
        // This launch is in the mints table, so at least 1.
        creatorLaunches: launches.get(s.row.creator) ?? 1,
        solUsd: price?.usd ?? null,
        freshness: s.freshness,
        graduatedAt: s.row.graduatedAt,
        survivalLive,
        smartScores: smartScoresByPrefix(sm),
        smartMoneyIn: sm.smartMoneyIn,
        runnerFromNow: o.runnerFromNow?.(s) ?? null,
        metadata: quality.get(s.row.mint),
      });
      return { mint, smartMoney: sm };
    });
  }

  const enrich = async (states: readonly MintState[], now: Date, o: { ownOutcomes: boolean }): Promise<EnrichedMint[]> =>
    (await enrichWithSmartMoney(states, now, o)).map((e) => e.mint);

  return {
    enrich,
    enrichWithSmartMoney,

    /** The enriched records of these mints from their trades up to `now`, even those the dashboard would hide. */
    async enriched(rows: readonly MintRow[], now: Date): Promise<EnrichedMint[]> {
      return enrich(await mintStates.fold(rows, now), now, { ownOutcomes: true });
    },
  };
}
export type LiveReadModel = ReturnType<typeof createLiveReadModel>;
