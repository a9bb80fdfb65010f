import type { HolderThresholds, Tier } from '../../domain/access/tiers';
import { canWatch } from '../../domain/alerts/rule-limits';
import type { Watch } from '../../domain/alerts/watch-events';
import { keyTier, touch } from './alert-rule-store';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/** Owners' watchlists, limited per tier (Free 5 mints), checked with the owner's key row locked. */
export function createWatchlistStore(handle: Db, o: { holderThresholds: HolderThresholds }) {
  const db = knexOf(handle);
  return {
    async add(ownerKeyId: number, mint: string, now: Date): Promise<{ ok: true; added: boolean } | { ok: false; reason: string; tier: Tier }> {
      return db.transaction(async (trx) => {
        const key = await trx('api_keys').where({ id: ownerKeyId }).whereNull('revoked_at').forUpdate().first();
        if (!key) return { ok: false as const, reason: 'this API key is no longer valid; /link another', tier: 'free' as Tier };
        if (await trx('alert_watchlist').where({ owner_key_id: ownerKeyId, mint }).first()) return { ok: true as const, added: false };
        const tier = keyTier(key, now, o.holderThresholds);
        const n = await trx('alert_watchlist').where({ owner_key_id: ownerKeyId }).count<{ n: string }[]>('* as n');
        const verdict = canWatch(tier, Number(n[0]!.n));
        if (!verdict.ok) return { ...verdict, tier };
        await trx('alert_watchlist').insert({ owner_key_id: ownerKeyId, mint, added_at: now });
        await touch(trx, now);
        return { ok: true as const, added: true };
      });
    },
    async remove(ownerKeyId: number, mint: string, now: Date = new Date()): Promise<boolean> {
      return db.transaction(async (trx) => {
        const n = await trx('alert_watchlist').where({ owner_key_id: ownerKeyId, mint }).delete();
        if (n > 0) await touch(trx, now);
        return n > 0;
      });
    },
    /** Every watch of a live key, with its owner's effective tier now (the evaluator keeps those within the tier). */
    async watchesWithTiers(now: Date): Promise<Watch[]> {
      const rows = await db('alert_watchlist as w')
        .join('api_keys as k', 'k.id', 'w.owner_key_id')
        .whereNull('k.revoked_at')
        .select('w.owner_key_id', 'w.mint', 'w.added_at', 'k.tier', 'k.plan_expires_at', 'k.custom_daily_quota', 'k.holder_balance');
      return rows.map((r) => ({
        ownerKeyId: Number(r.owner_key_id),
        mint: r.mint,
        addedAt: r.added_at.getTime(),
        ownerTier: keyTier(r, now, o.holderThresholds),
      }));
    },
    async list(ownerKeyId: number): Promise<string[]> {
      return (await db('alert_watchlist').where({ owner_key_id: ownerKeyId }).orderBy('added_at').select('mint')).map((r) => r.mint);
    },
  };
}
export type WatchlistStore = ReturnType<typeof createWatchlistStore>;
