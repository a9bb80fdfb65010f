import { creatorRecord, type CreatorRecord } from '../../domain/launch/creator-record';
import type { TradeEvent } from '../../domain/launch/launch-events';
import { MintTape } from '../../domain/launch/mint-tape';
import { LABEL_VERSION } from '../../domain/launch/outcome-labels';
import { unknownBuyers } from '../../domain/launch/wallet-freshness';
import { topBuyerWallets } from '../../domain/launch/mint-signals';
import type { LaunchContext } from '../../domain/scoring/launch-features';
import { createCreatorStore } from './creator-store';
import { createMintReadStore, pairKey, type MintRow } from './mint-read-store';
import type { Db } from '../db-handle';

/** One mint as the read models hold it: its row, its tape folded up to some moment, each known buyer's freshness. */
export type MintState = { row: MintRow; tape: MintTape; freshness: Map<string, boolean> };

/** What scoring needs at a moment: the state, the trades it folded, the creator's record then, and the launch features' context. */
export type ScoringView = MintState & { trades: TradeEvent[]; creator: CreatorRecord; launchContext: LaunchContext };

/**
 * Which of each mint's top buyers are smart wallets, by the wallet index (the wallets area's lookup, passed in by
 * whoever builds the states: the mint area does not import the wallets area, which builds on it).
 */
export type SmartBuyersSource = {
  smartMoney(
    topBuyers: ReadonlyMap<string, readonly { wallet: string; solIn: number }[]>,
  ): Promise<ReadonlyMap<string, { buyers: readonly { smart: boolean }[] }>>;
};

/**
 * Mints folded from their trades as of a moment: what scoring reads, and what the live read model enriches
 * (db/live/live-read-model.ts), so both see a mint the same way. `smartMoney` is needed by `scoringView` only.
 */
export function createMintStates(handle: Db, o: { smartMoney?: SmartBuyersSource } = {}) {
  const reads = createMintReadStore(handle);
  const creators = createCreatorStore(handle);

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

  return {
    fold,
    learnFreshness,

    /** A mint as of `asOf`, for scoring: its tape and trades up to then, its buyers' freshness, its creator's record. */
    async scoringView(row: MintRow, asOf: Date): Promise<ScoringView> {
      const smartMoney = o.smartMoney;
      if (!smartMoney) throw new Error('mint states were built without a smart money source: scoring needs one');
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
export type MintStates = ReturnType<typeof createMintStates>;
