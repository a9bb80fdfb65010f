import type { PriceQuote } from '../../domain/market/native-coin';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type SourceStatus = { source: string; lastAttemptAt: Date; lastSuccessAt: Date | null; lastError: string | null; consecutiveFailures: number };

export function createPriceStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /** Stores a fetched quote and marks its source healthy. Idempotent on (symbol, source, fetched_at). */
    async recordQuote(q: PriceQuote): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('native_coin_prices')
          .insert({ symbol: q.symbol, mint: q.mint, usd: q.usd, source: q.source, fetched_at: q.fetchedAt })
          .onConflict(['symbol', 'source', 'fetched_at'])
          .ignore();
        await trx('price_source_status')
          .insert({ source: q.source, last_attempt_at: q.fetchedAt, last_success_at: q.fetchedAt, last_error: null, consecutive_failures: 0 })
          .onConflict('source')
          .merge();
      });
    },

    async recordFailure(source: string, at: Date, error: string): Promise<void> {
      await db('price_source_status')
        .insert({ source, last_attempt_at: at, last_error: error.slice(0, 500), consecutive_failures: 1 })
        .onConflict('source')
        .merge({
          last_attempt_at: at,
          last_error: error.slice(0, 500),
          consecutive_failures: db.raw('price_source_status.consecutive_failures + 1'),
        });
    },

    async latestQuote(symbol: 'SOL'): Promise<(PriceQuote & { status: SourceStatus | undefined }) | undefined> {
      const r = await db('native_coin_prices').where({ symbol }).orderBy('fetched_at', 'desc').first();
      if (!r) return undefined;
      const s = await db('price_source_status').where({ source: r.source }).first();
      return {
        symbol,
        mint: r.mint,
        usd: r.usd,
        source: r.source,
        fetchedAt: r.fetched_at,
        status: s && {
          source: s.source,
          lastAttemptAt: s.last_attempt_at,
          lastSuccessAt: s.last_success_at,
          lastError: s.last_error,
          consecutiveFailures: s.consecutive_failures,
        },
      };
    },
  };
}
export type PriceStore = ReturnType<typeof createPriceStore>;
