import type { CreateEvent, TradeEvent } from '../../domain/launch/launch-events';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type MintRow = CreateEvent & { graduatedAt: Date | null };

/** A `mints` row (joined with its graduation) as the domain's create event. */
export const toMintRow = (r: any): MintRow => ({
  kind: 'create',
  mint: r.mint,
  signature: r.create_signature,
  ordinal: 0,
  slot: r.slot,
  at: r.created_at,
  source: r.source,
  name: r.name,
  symbol: r.symbol,
  uri: r.uri,
  bondingCurve: r.bonding_curve,
  creator: r.creator,
  mayhem: r.mayhem,
  vSolLamports: r.initial_v_sol_lamports,
  vTokensRaw: r.initial_v_tokens_raw,
  graduatedAt: r.completed_at ?? r.migrated_at ?? null,
});

export const toTrade = (r: any): TradeEvent => ({
  kind: 'trade',
  mint: r.mint,
  signature: r.signature,
  ordinal: 0,
  slot: r.slot,
  at: r.at,
  source: r.source,
  trader: r.trader,
  isBuy: r.is_buy,
  solLamports: r.sol_lamports,
  tokensRaw: r.tokens_raw,
  vSolLamports: r.v_sol_lamports,
  vTokensRaw: r.v_tokens_raw,
});

export const pairKey = (mint: string, wallet: string) => `${mint}:${wallet}`;

/** Point-in-time reads of one mint's facts, for scoring and resolution. */
export function createMintReadStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async getMint(mint: string): Promise<MintRow | undefined> {
      const r = await db('mints as m')
        .leftJoin('mint_graduations as g', 'g.mint', 'm.mint')
        .where('m.mint', mint)
        .first('m.*', 'g.completed_at', 'g.migrated_at');
      return r ? toMintRow(r) : undefined;
    },

    /** Trades at or before `until`, in time order (ties in ingest order). */
    async tradesUntil(mint: string, until: Date): Promise<TradeEvent[]> {
      const rows = await db('trades')
        .where({ mint })
        .where('at', '<=', until)
        .orderBy([{ column: 'at' }, { column: 'seq' }]);
      return rows.map(toTrade);
    },

    /** Trades of several mints at or before `until`, each mint's in time order (ties in ingest order). */
    async tradesUntilOf(mints: readonly string[], until: Date): Promise<TradeEvent[]> {
      if (!mints.length) return [];
      const rows = await db('trades')
        .whereIn('mint', mints)
        .where('at', '<=', until)
        .orderBy([{ column: 'mint' }, { column: 'at' }, { column: 'seq' }]);
      return rows.map(toTrade);
    },

    /**
     * Which (mint, wallet) pairs have launchpad history: a trade by the wallet before the mint's creation.
     * One query for any number of pairs (the trades (trader, at) index answers each probe).
     */
    async walletsWithHistory(pairs: readonly { mint: string; wallet: string }[]): Promise<Set<string>> {
      if (!pairs.length) return new Set();
      const r = await db.raw(
        `SELECT q.mint, q.wallet FROM unnest(?::text[], ?::text[]) AS q(mint, wallet)
         JOIN mints m ON m.mint = q.mint
         WHERE EXISTS (SELECT 1 FROM trades t WHERE t.trader = q.wallet AND t.at < m.created_at)`,
        [pairs.map((p) => p.mint), pairs.map((p) => p.wallet)],
      );
      return new Set((r.rows as { mint: string; wallet: string }[]).map((x) => pairKey(x.mint, x.wallet)));
    },
  };
}
export type MintReadStore = ReturnType<typeof createMintReadStore>;
