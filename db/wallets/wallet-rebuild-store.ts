import type { Knex } from 'knex';
import { LEADERBOARD_KINDS, leaderboardIndexSql } from '../../domain/wallets/leaderboards';
import type { SmartScoreVersion } from '../../domain/wallets/smart-score';
import { WALLET_CONTRIBUTION_VERSION } from '../../domain/wallets/wallet-contribution';
import type { MintToApply } from './resolved-mint-reader';
import { createScoreVersionStore } from './score-version-store';
import { createWalletIndexWriter } from './wallet-index-writer';
import { LIVE_TABLES, NEXT_TABLES, TABLE_PAIRS } from './wallet-tables';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/** The rebuild's position: the last resolved mint applied, in (created_at, mint) order. */
export type RebuildCursor = { createdAt: string; mint: string };

/** Another rebuild took over the `_next` tables (or none owns them any more): this one must stop. */
export class RebuildSuperseded extends Error {}

/**
 * A rebuild of the wallet index from the trades table (docs/wallet-index.md §7), beside the live tables: the API and
 * the resolutions keep using the live set while the `_next` set is filled batch by batch in mint time order; then
 * the leaderboard indexes are built on it, the mints the live set applied meanwhile are applied to it, and one short
 * transaction swaps it in and publishes the rebuild's score version. `wallet_index_state.rebuild_id` names the one
 * rebuild that owns the `_next` tables; every step checks it.
 */
export function createWalletRebuildStore(handle: Db) {
  const db = knexOf(handle);
  const writer = createWalletIndexWriter(handle);

  async function assertOwner(q: Knex | Knex.Transaction, rebuildId: string, lock = false): Promise<{ startedAt: Date }> {
    const query = q('wallet_index_state').first('rebuild_id', 'rebuild_started_at');
    const s = await (lock ? query.forUpdate() : query);
    if (!s || s.rebuild_id !== rebuildId)
      throw new RebuildSuperseded(`rebuild ${rebuildId} no longer owns the wallet index's next tables (owner: ${s?.rebuild_id ?? 'none'})`);
    return { startedAt: s.rebuild_started_at };
  }

  /** Mints the live set applied that the next set lacks or holds differently, or applied since `since`. */
  async function liveMintsToCatchUp(q: Knex | Knex.Transaction, since: Date, all: boolean): Promise<MintToApply[]> {
    const rows = await q.raw(
      all
        ? `SELECT l.mint, l.horizon_at FROM ${LIVE_TABLES.mints} l LEFT JOIN ${NEXT_TABLES.mints} n ON n.mint = l.mint
           WHERE n.mint IS NULL OR l.applied_at >= ?
              OR (l.graduated, l.rugged, l.label_version, l.rug_label_version, l.horizon_at) IS DISTINCT FROM (n.graduated, n.rugged, n.label_version, n.rug_label_version, n.horizon_at)`
        : `SELECT l.mint, l.horizon_at FROM ${LIVE_TABLES.mints} l WHERE l.applied_at >= ?`,
      [since],
    );
    return (rows.rows as { mint: string; horizon_at: Date }[]).map((r) => ({ mint: r.mint, horizonAt: r.horizon_at }));
  }

  async function applyInChunks(mints: readonly MintToApply[], trx?: Knex.Transaction): Promise<number> {
    for (let i = 0; i < mints.length; i += 500) await writer.apply(NEXT_TABLES, mints.slice(i, i + 500), trx);
    return mints.length;
  }

  return {
    /**
     * Takes the `_next` tables for this rebuild (a rebuild that owned them is superseded), registers its score version
     * and creates the tables empty, shaped like the live ones (LIKE keeps column types and the "C" collation) with only
     * their primary keys: the leaderboard indexes are built once, after the bulk of the rows.
     */
    async prepare(rebuildId: string, version: SmartScoreVersion, now: Date): Promise<{ totalMints: number }> {
      await createScoreVersionStore(handle).register(version);
      await db.transaction(async (trx) => {
        await trx('wallet_index_state').update({ rebuild_id: rebuildId, rebuild_started_at: now });
        for (const [next, live] of TABLE_PAIRS) {
          await trx.raw(`DROP TABLE IF EXISTS ${next}`);
          await trx.raw(`CREATE TABLE ${next} (LIKE ${live} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
        }
        await trx.raw(`ALTER TABLE ${NEXT_TABLES.records} ADD PRIMARY KEY (wallet)`);
        await trx.raw(`ALTER TABLE ${NEXT_TABLES.contributions} ADD PRIMARY KEY (mint, wallet)`);
        await trx.raw(`ALTER TABLE ${NEXT_TABLES.mints} ADD PRIMARY KEY (mint)`);
        await trx('wallet_index_counts').insert({ name: 'next', wallets: 0 }).onConflict('name').merge();
      });
      const r = await db('mint_outcomes').count('* as n').first();
      return { totalMints: Number(r?.n ?? 0) };
    },

    /**
     * The next `limit` resolved mints after the cursor, in (created_at, mint) order, applied to the next set. A mint
     * the live set applied keeps the horizon it was resolved at; one it never applied (history from before the index)
     * is read to its creation + `defaultHorizonS`.
     */
    async batch(rebuildId: string, after: RebuildCursor | null, limit: number, defaultHorizonS: number) {
      await assertOwner(db, rebuildId);
      const rows = await db.raw(
        `SELECT m.mint, m.created_at, coalesce(l.horizon_at, m.created_at + make_interval(secs => ?)) AS horizon_at
         FROM mints m JOIN mint_outcomes o ON o.mint = m.mint
         LEFT JOIN ${LIVE_TABLES.mints} l ON l.mint = (m.mint COLLATE "C")
         WHERE (m.created_at, m.mint) > (?::timestamptz, ?::text)
         ORDER BY m.created_at, m.mint
         LIMIT ?`,
        [defaultHorizonS, after?.createdAt ?? '-infinity', after?.mint ?? '', limit],
      );
      const list = rows.rows as { mint: string; created_at: Date; horizon_at: Date }[];
      const applied = await writer.apply(
        NEXT_TABLES,
        list.map((r) => ({ mint: r.mint, horizonAt: r.horizon_at })),
      );
      const last = list[list.length - 1];
      return { ...applied, cursor: last ? { createdAt: last.created_at.toISOString(), mint: last.mint } : after, done: list.length < limit };
    },

    /** The leaderboard indexes of every kind on the next records, for each score version given (the published one, and the rebuild's). */
    async buildIndexes(rebuildId: string, versions: readonly SmartScoreVersion[]): Promise<string[]> {
      await assertOwner(db, rebuildId);
      const built: string[] = [];
      const seen = new Set<string>();
      for (const v of versions) {
        for (const kind of LEADERBOARD_KINDS) {
          for (const range of ['from-min', 'below-min'] as const) {
            const sql = leaderboardIndexSql(kind, range, v, { table: NEXT_TABLES.records, concurrently: false }).replace(
              'CREATE INDEX ',
              'CREATE INDEX IF NOT EXISTS ',
            );
            if (seen.has(sql)) continue;
            seen.add(sql);
            await db.raw(sql);
            built.push(sql.split(' ')[5]!);
          }
        }
      }
      await db.raw(`CREATE INDEX IF NOT EXISTS ${NEXT_TABLES.mints}_applied_at ON ${NEXT_TABLES.mints} (applied_at)`);
      for (const t of [NEXT_TABLES.records, NEXT_TABLES.contributions, NEXT_TABLES.mints]) await db.raw(`ANALYZE ${t}`);
      return built;
    },

    /** Applies to the next set what the live set applied meanwhile (no lock: resolutions go on). Returns when it started. */
    async catchUp(rebuildId: string): Promise<{ mints: number; startedAt: Date }> {
      const { startedAt: rebuildStartedAt } = await assertOwner(db, rebuildId);
      // An application stamps applied_at with its transaction's start (now()), and may commit after the read below:
      // the swap re-reads from the start of the oldest transaction open now, not from now, so none is missed.
      const startedAt = new Date(
        (await db.raw(`SELECT least(now(), min(xact_start)) AS t FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'`))
          .rows[0].t,
      );
      const mints = await applyInChunks(await liveMintsToCatchUp(db, rebuildStartedAt, true));
      return { mints, startedAt };
    },

    /**
     * The swap, in one transaction: writes to the live set's applied mints are locked out (resolutions wait; reads go
     * on), the mints applied since the catch-up started are applied to the next set, the live tables are dropped and
     * the next ones renamed over them (their indexes too), the count moves over, and the rebuild's score version is
     * published. Statements blocked on the lock resolve the table names again once it is released, so a resolution
     * that waited writes to the new live set.
     */
    async swap(rebuildId: string, version: SmartScoreVersion, catchUpStartedAt: Date, now: Date): Promise<{ caughtUp: number; wallets: number }> {
      return db.transaction(async (trx) => {
        await trx.raw(`SET LOCAL lock_timeout = '20s'`);
        await trx.raw(`LOCK TABLE ${LIVE_TABLES.mints} IN EXCLUSIVE MODE`);
        await assertOwner(trx, rebuildId, true);
        const caughtUp = await applyInChunks(await liveMintsToCatchUp(trx, catchUpStartedAt, false), trx);
        for (const [next, live] of TABLE_PAIRS) {
          const indexes = (await trx.raw(`SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ?`, [next])).rows as {
            indexname: string;
          }[];
          await trx.raw(`DROP TABLE ${live}`);
          await trx.raw(`ALTER TABLE ${next} RENAME TO ${live}`);
          for (const { indexname } of indexes)
            if (indexname.startsWith(next)) await trx.raw(`ALTER INDEX ${indexname} RENAME TO ${live}${indexname.slice(next.length)}`);
        }
        const counted = await trx('wallet_index_counts').where({ name: 'next' }).first('wallets');
        const wallets = Number(counted?.wallets ?? 0);
        await trx('wallet_index_counts').where({ name: 'live' }).update({ wallets });
        await trx('wallet_index_counts').where({ name: 'next' }).delete();
        await trx('wallet_index_state').update({
          score_version: version.id,
          contribution_version: WALLET_CONTRIBUTION_VERSION,
          rebuilt_at: now,
          rebuild_id: null,
          rebuild_started_at: null,
        });
        return { caughtUp, wallets };
      });
    },
  };
}
export type WalletRebuildStore = ReturnType<typeof createWalletRebuildStore>;
