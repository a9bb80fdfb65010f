import type { AlertCandidate, WatchdogObservation } from '../../domain/ops/watchdog-rules';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type WatchdogTickRow = WatchdogObservation & { id: number; at: Date };
export type OpenAlert = AlertCandidate & { raisedAt: Date };

export function createWatchdogStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /**
     * Stores one tick and reconciles open alerts with `alerts`, in one transaction. Keyed by `tickKey`
     * (the tick's workflow id), so a retried activity changes nothing twice.
     */
    async recordTick(tickKey: string, at: Date, o: WatchdogObservation, alerts: AlertCandidate[]): Promise<{ raised: string[]; cleared: string[] }> {
      return db.transaction(async (trx) => {
        const inserted = await trx('watchdog_ticks')
          .insert({
            tick_key: tickKey,
            at,
            disk_path: o.disk.path,
            disk_total_bytes: o.disk.totalBytes,
            disk_free_bytes: o.disk.freeBytes,
            mem_total_bytes: o.memory.totalBytes,
            mem_available_bytes: o.memory.availableBytes,
            stuck_count: o.stuck.count,
            stuck_by_type: JSON.stringify(o.stuck.byType),
            stale_heartbeats: JSON.stringify(o.staleHeartbeats),
          })
          .onConflict('tick_key')
          .ignore()
          .returning('id');
        if (inserted.length === 0) return { raised: [], cleared: [] };

        const open: { code: string }[] = await trx('health_alerts').whereNull('cleared_at').select('code').forUpdate();
        const openCodes = new Set(open.map((r) => r.code));
        const wanted = new Set(alerts.map((a) => a.code));
        const raised: string[] = [];
        for (const a of alerts) {
          if (openCodes.has(a.code)) {
            await trx('health_alerts')
              .where({ code: a.code })
              .whereNull('cleared_at')
              .update({ severity: a.severity, message: a.message, value: a.value, threshold: a.threshold, last_seen_at: at });
          } else {
            await trx('health_alerts').insert({ ...a, raised_at: at, last_seen_at: at });
            raised.push(a.code);
          }
        }
        const cleared = [...openCodes].filter((c) => !wanted.has(c));
        if (cleared.length) await trx('health_alerts').whereIn('code', cleared).whereNull('cleared_at').update({ cleared_at: at });
        return { raised, cleared };
      });
    },

    async latestTick(): Promise<WatchdogTickRow | undefined> {
      const r = await db('watchdog_ticks').orderBy('at', 'desc').first();
      if (!r) return undefined;
      return {
        id: r.id,
        at: r.at,
        disk: { path: r.disk_path, totalBytes: r.disk_total_bytes, freeBytes: r.disk_free_bytes },
        memory: { totalBytes: r.mem_total_bytes, availableBytes: r.mem_available_bytes },
        stuck: { count: r.stuck_count, byType: r.stuck_by_type },
        staleHeartbeats: r.stale_heartbeats,
      };
    },

    async openAlerts(): Promise<OpenAlert[]> {
      const rows = await db('health_alerts').whereNull('cleared_at').orderBy('raised_at', 'asc');
      return rows.map((r) => ({ code: r.code, severity: r.severity, message: r.message, value: r.value, threshold: r.threshold, raisedAt: r.raised_at }));
    },
  };
}
export type WatchdogStore = ReturnType<typeof createWatchdogStore>;
