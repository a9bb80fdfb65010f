import type { Knex } from 'knex';
import { SURVIVAL_GATE } from '../../domain/accuracy/survival-gate';
import { creatorRecord, type CreatorRecord } from '../../domain/mint/creator-record';
import { enrichMint, type EnrichedMint } from '../../domain/mint/enriched-mint';
import type { TradeEvent } from '../../domain/mint/launch-events';
import { MintTape } from '../../domain/mint/mint-tape';
import { LABEL_VERSION } from '../../domain/mint/outcome-labels';
import type { LaunchContext } from '../../domain/scoring/launch-features';
import { topBuyerWallets } from '../../domain/mint/mint-signals';
import { unknownBuyers } from '../../domain/mint/wallet-freshness';
import { smartScoresByPrefix, type SmartMoney } from '../../domain/wallets/smart-money';
import { DEFAULT_SMART_CRITERIA, type SmartCriteria } from '../../domain/wallets/smart-score';
import { createGateStore } from '../accuracy/gate-store';
import { createPriceStore } from '../market/price-store';
import { createCreatorStore } from './creator-store';
import { createLiveStore } from './live-store';
import { createMintReadStore, pairKey, type MintRow } from './mint-read-store';
import { createSmartMoneyLookup } from '../wallets/smart-money-lookup';

/** One mint as the read model holds it: its row, its tape folded up to some moment, each known buyer's freshness. */
export type MintState = { row: MintRow; tape: MintTape; freshness: Map<string, boolean> };

/** What scoring needs at a moment: the state, the trades it folded, the creator's record then, and the launch features' context. */
export type ScoringView = MintState & { trades: TradeEvent[]; creator: CreatorRecord; launchContext: LaunchContext };

/**
 * The one place the enriched mint (openapi `EnrichedMint`) is assembled from Postgres: tape, buyer freshness,
 * creator record, latest prediction, SOL price and the survival gate. `enriched` loads any set of mints (the probe;
 * signals, alerts and webhooks later); the live projector keeps the states in memory (incremental-live-model.ts)
 * and has them enriched here; scoring reads the same state as of its moment.
 */
export function createLiveReadModel(db: Knex, o: { smartMoney?: { ttlMs: number; criteria: SmartCriteria } } = {}) {
  const reads = createMintReadStore(db);
  // Smart money (smart_money_in, top_buyers[].smart_score) from the wallet index, by the top buyers' full addresses.
  const smartMoney = createSmartMoneyLookup(db, o.smartMoney ?? { ttlMs: 15_000, criteria: DEFAULT_SMART_CRITERIA });
  const live = createLiveStore(db);
  const creators = createCreatorStore(db);
  const prices = createPriceStore(db);
  const gates = createGateStore(db);

  /** Tapes of `rows` folded from their trades up to `until` (one query), freshness not looked up yet. */
  async function fold(rows: readonly MintRow[], until: Date): Promise<(MintState & { trades: TradeEvent[] })[]> {
    const trades = await reads.tradesUntilOf(
      rows.map((r) => r.mint),
      until,
    );
    const states = new Map(rows.map((row) => [row.mint, { row, tape: new MintTape(row), freshness: new Map<string, boolean>(), trades: [] as TradeEvent[] }]));
    for (const t of trades) {
      const s = states.get(t.mint)!;
      s.tape.apply(t);
      s.trades.push(t);
    }
    return [...states.values()];
  }

  /** Looks up each buyer whose freshness is not known yet, for every mint in one query. Freshness never changes. */
  async function learnFreshness(states: readonly MintState[]): Promise<void> {
    const pairs = states.flatMap((s) => unknownBuyers(s.tape, s.freshness).map((wallet) => ({ mint: s.row.mint, wallet })));
    const seen = await reads.walletsWithHistory(pairs);
    const byMint = new Map(states.map((s) => [s.row.mint, s]));
    for (const p of pairs) byMint.get(p.mint)!.freshness.set(p.wallet, !seen.has(pairKey(p.mint, p.wallet)));
  }

  /**
   * The enriched record of each state as of `now`, with its smart money. `ownOutcomes`: a mint old enough to be
   * resolved is not part of its own creator's record (the probe); live mints are younger than the 24 h horizon, so
   * the projector skips it.
   */
  async function enrichWithSmartMoney(
    states: readonly MintState[],
    now: Date,
    o: { ownOutcomes: boolean },
  ): Promise<{ mint: EnrichedMint; smartMoney: SmartMoney }[]> {
    const mints = states.map((s) => s.row.mint);
    const tops = new Map(states.map((s) => [s.row.mint, topBuyerWallets(s.tape)]));
    const [, aggregates, own, predictions, price, gate, smart] = await Promise.all([
      learnFreshness(states),
      creators.aggregates([...new Set(states.map((s) => s.row.creator))], LABEL_VERSION),
      o.ownOutcomes ? creators.ownOutcomes(mints, LABEL_VERSION) : new Map(),
      live.latestPredictions(mints),
      prices.latestQuote('SOL'),
      gates.read(SURVIVAL_GATE.name),
      smartMoney.smartMoney(tops),
    ]);
    return states.map((s) => {
      const sm = smart.get(s.row.mint)!;
      const mint = enrichMint({
        tape: s.tape,
        now,
        prediction: predictions.get(s.row.mint) ?? null,
        creator: creatorRecord(aggregates.get(s.row.creator) ?? null, own.get(s.row.mint) ?? null),
        solUsd: price?.usd ?? null,
        freshness: s.freshness,
        graduatedAt: s.row.graduatedAt,
        survivalLive: gate?.state === 'live',
        smartScores: smartScoresByPrefix(sm),
        smartMoneyIn: sm.smartMoneyIn,
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
      return enrich(await fold(rows, now), now, { ownOutcomes: true });
    },

    /** A mint as of `asOf`, for scoring: its tape and trades up to then, its buyers' freshness, its creator's record. */
    async scoringView(row: MintRow, asOf: Date): Promise<ScoringView> {
      const [state] = await fold([row], asOf);
      const tops = topBuyerWallets(state!.tape);
      const [, aggregates, smart] = await Promise.all([
        learnFreshness([state!]),
        creators.aggregates([row.creator], LABEL_VERSION),
        smartMoney.smartMoney(new Map([[row.mint, tops]])),
      ]);
      const agg = aggregates.get(row.creator) ?? null;
      const buyers = smart.get(row.mint)?.buyers ?? [];
      const smartWallets = new Set(tops.filter((_, i) => buyers[i]?.smart === true).map((t) => t.wallet));
      return {
        ...state!,
        creator: creatorRecord(agg),
        // The wallet index and the creator's resolved launches as they stand at scoring: nothing resolved later.
        launchContext: {
          isFresh: (w) => state!.freshness.get(w) === true,
          isSmart: (w) => smartWallets.has(w),
          creator: { launches: agg?.nResolved ?? 0, graduates: agg?.nGraduated ?? 0, rugs: agg?.nRugged ?? 0 },
        },
      };
    },
  };
}
export type LiveReadModel = ReturnType<typeof createLiveReadModel>;
