import type { MetadataQuality } from '../../domain/metadata/launch-metadata';
import type { MetadataRecord } from '../../domain/metadata/metadata-attempt';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/** A mint whose metadata is to be fetched now: never tried, or a retry that is due. `attempts` so far. */
export type MetadataDue = { mint: string; uri: string; name: string; symbol: string; attempts: number };

/** `mint_metadata`: written only by the metadata fetcher's activity, read by the live read model. */
export function createMintMetadataStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /**
     * Up to `limit` mints to fetch, newest first: non-mayhem mints created since `since` with no row yet, then rows
     * whose retry is due. Older mints (history from before the fetcher, a backfill) are left unfetched.
     */
    async due(limit: number, since: Date, now: Date): Promise<MetadataDue[]> {
      const fresh = await db('mints as m')
        .where('m.created_at', '>=', since)
        .where('m.mayhem', false)
        .whereNotExists(db('mint_metadata as x').whereRaw('x.mint = m.mint'))
        .orderBy('m.created_at', 'desc')
        .limit(limit)
        .select('m.mint', 'm.uri', 'm.name', 'm.symbol');
      const retries =
        fresh.length >= limit
          ? []
          : await db('mint_metadata as x')
              .join('mints as m', 'm.mint', 'x.mint')
              .whereRaw('NOT x.final')
              .where('x.next_attempt_at', '<=', now)
              .orderBy('x.next_attempt_at')
              .limit(limit - fresh.length)
              .select('m.mint', 'm.uri', 'm.name', 'm.symbol', 'x.attempts');
      return [...fresh.map((r) => ({ ...r, attempts: 0 })), ...retries].map((r) => ({
        mint: r.mint,
        uri: r.uri,
        name: r.name,
        symbol: r.symbol,
        attempts: Number(r.attempts),
      }));
    },

    /**
     * Stores attempts. Idempotent: a row is replaced only by a later attempt of a row that is not final yet, so a
     * retried activity, or two fetchers racing on one mint, never undo a settled outcome.
     */
    async record(records: readonly MetadataRecord[]): Promise<void> {
      if (records.length === 0) return;
      await db('mint_metadata')
        .insert(
          records.map((r) => ({
            mint: r.mint,
            uri: r.uri,
            fetched_at: r.fetchedAt,
            outcome: r.outcome,
            reason: r.reason,
            has_socials: r.hasSocials,
            metadata_ok: r.metadataOk,
            attempts: r.attempts,
            final: r.final,
            next_attempt_at: r.nextAttemptAt,
          })),
        )
        .onConflict('mint')
        .merge()
        .where(db.raw('NOT mint_metadata.final AND mint_metadata.attempts < excluded.attempts'));
    },

    /** Each listed mint's metadata fields; a mint without a settled row is absent (not fetched yet). */
    async quality(mints: readonly string[]): Promise<Map<string, MetadataQuality>> {
      if (mints.length === 0) return new Map();
      const rows = await db('mint_metadata').whereIn('mint', mints).where('final', true).select('mint', 'has_socials', 'metadata_ok');
      return new Map(rows.map((r) => [r.mint as string, { has_socials: r.has_socials, metadata_ok: r.metadata_ok }]));
    },

    /** A mint's row as stored (operations, tests). */
    async get(mint: string): Promise<MetadataRecord | null> {
      const r = await db('mint_metadata').where({ mint }).first();
      if (!r) return null;
      return {
        mint: r.mint,
        uri: r.uri,
        fetchedAt: r.fetched_at,
        outcome: r.outcome,
        reason: r.reason,
        hasSocials: r.has_socials,
        metadataOk: r.metadata_ok,
        attempts: Number(r.attempts),
        final: r.final,
        nextAttemptAt: r.next_attempt_at,
      };
    },
  };
}
export type MintMetadataStore = ReturnType<typeof createMintMetadataStore>;
