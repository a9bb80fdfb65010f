import type { WalletRecord } from '../../domain/perps/wallet-record';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type WatchedWalletRow = {
  wallet: string;
  source: string;
  discoveredAt: Date;
  watched: boolean;
  nextSnapshotAt: Date;
  lastSnapshotAt: Date | null;
  lastActiveAt: Date;
  fillsRefreshedAt: Date | null;
  lastFillMs: number | null;
  record: WalletRecord | null;
  smart: boolean;
  whale: boolean;
  smartScore: number | null;
  roi30d: number | null;
  ruleVersion: string | null;
};

/**
 * The watched set: wallets discovered on the trades stream (or named by an operator), at most `max` watched at a
 * time. Making room evicts the least recently active wallets that are neither smart nor whales; an evicted
 * wallet keeps its rows (its entries and page stay) and is watched again when it trades big again.
 */
export function createPerpsWalletStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /** Watches `wallets` (new ones, or evicted ones again), due for a snapshot now; returns how many were added. */
    async discover(exchange: string, wallets: readonly string[], source: string, at: Date, max: number): Promise<number> {
      const unique = [...new Set(wallets.map((w) => w.toLowerCase()))];
      if (!unique.length) return 0;
      return db.transaction(async (trx) => {
        // One discoverer at a time per exchange, so two never both fill the last free places.
        await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`perps-discover:${exchange}`]);
        const { rows } = await trx.raw(
          `INSERT INTO perps_wallets (exchange, wallet, source, discovered_at, watched, poked_at, next_snapshot_at, last_active_at)
           SELECT ?, w, ?, ?, true, ?, ?, ? FROM unnest(?::text[]) AS w
           ON CONFLICT (exchange, wallet) DO UPDATE SET watched = true, poked_at = excluded.poked_at, last_active_at = excluded.last_active_at
             WHERE NOT perps_wallets.watched
           RETURNING wallet`,
          [exchange, source, at, at, at, at, unique],
        );
        const added = (rows as { wallet: string }[]).map((r) => r.wallet);
        if (!added.length) return 0;
        const count = (await trx('perps_wallets').where({ exchange, watched: true }).count('* as n').first()) as { n: number } | undefined;
        const over = Number(count?.n ?? 0) - max;
        if (over > 0) {
          await trx.raw(
            `UPDATE perps_wallets SET watched = false, poked_at = NULL WHERE exchange = ? AND wallet IN (
               SELECT wallet FROM perps_wallets WHERE exchange = ? AND watched AND NOT smart AND NOT whale AND wallet <> ALL(?::text[])
               ORDER BY last_active_at, wallet LIMIT ?)`,
            [exchange, exchange, added, over],
          );
        }
        return added.length;
      });
    },

    /** A watched wallet traded: snapshot it at the next sweep. Returns how many watched wallets were poked. */
    async poke(exchange: string, wallets: readonly string[], at: Date): Promise<number> {
      if (!wallets.length) return 0;
      return db('perps_wallets')
        .where({ exchange, watched: true })
        .whereIn('wallet', [...new Set(wallets)])
        .update({ poked_at: db.raw('coalesce(poked_at, ?)', [at]), last_active_at: at });
    },

    /** A wallet whose snapshot failed for good this time: its next turn is at `nextAt` (a poke before `pickedAt` is spent). */
    async defer(exchange: string, wallet: string, nextAt: Date, pickedAt: Date): Promise<void> {
      await db('perps_wallets')
        .where({ exchange, wallet })
        .update({ next_snapshot_at: nextAt, poked_at: db.raw('CASE WHEN poked_at <= ? THEN NULL ELSE poked_at END', [pickedAt]) });
    },

    async watchedWallets(exchange: string): Promise<string[]> {
      return (await db('perps_wallets').where({ exchange, watched: true }).select('wallet')).map((r: { wallet: string }) => r.wallet);
    },

    /** Wallets to snapshot now: poked ones first (oldest poke first), then smart ones, then the most overdue. */
    async due(exchange: string, now: Date, limit: number): Promise<{ wallet: string; dueAt: Date }[]> {
      const rows = await db('perps_wallets')
        .where({ exchange, watched: true })
        .andWhere((q) => q.whereNotNull('poked_at').orWhere('next_snapshot_at', '<=', now))
        .orderByRaw('poked_at ASC NULLS LAST, smart DESC, next_snapshot_at ASC, wallet')
        .limit(limit)
        .select('wallet', 'poked_at', 'next_snapshot_at');
      return rows.map((r: { wallet: string; poked_at: Date | null; next_snapshot_at: Date }) => ({
        wallet: r.wallet,
        dueAt: r.poked_at && r.poked_at < r.next_snapshot_at ? r.poked_at : r.next_snapshot_at,
      }));
    },

    async wallet(exchange: string, wallet: string): Promise<WatchedWalletRow | undefined> {
      const r = await db('perps_wallets').where({ exchange, wallet: wallet.toLowerCase() }).first();
      return r && toRow(r);
    },

    /** Every exchange's row of a wallet (the API's wallet page is across exchanges). */
    async walletAnywhere(wallet: string): Promise<(WatchedWalletRow & { exchange: string })[]> {
      const rows = await db('perps_wallets').where({ wallet: wallet.toLowerCase() }).orderBy('exchange');
      return rows.map((r: Record<string, any>) => ({ ...toRow(r), exchange: r.exchange }));
    },

    async counts(): Promise<{ watched: number; watchedHot: number; known: number; since: Date | null }> {
      const r = await db('perps_wallets').first(
        db.raw('count(*) FILTER (WHERE watched)::int AS watched'),
        db.raw('count(*) FILTER (WHERE watched AND (smart OR whale))::int AS hot'),
        db.raw('count(*)::int AS known'),
        db.raw('min(discovered_at) AS since'),
      );
      return { watched: r.watched, watchedHot: r.hot, known: r.known, since: r.since };
    },
  };
}
export type PerpsWalletStore = ReturnType<typeof createPerpsWalletStore>;

function toRow(r: Record<string, any>): WatchedWalletRow {
  return {
    wallet: r.wallet,
    source: r.source,
    discoveredAt: r.discovered_at,
    watched: r.watched,
    nextSnapshotAt: r.next_snapshot_at,
    lastSnapshotAt: r.last_snapshot_at,
    lastActiveAt: r.last_active_at,
    fillsRefreshedAt: r.fills_refreshed_at,
    lastFillMs: r.last_fill_ms,
    record: r.record,
    smart: r.smart,
    whale: r.whale,
    smartScore: r.smart_score,
    roi30d: r.roi_30d,
    ruleVersion: r.rule_version,
  };
}
