import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type PollerName = 'markets' | 'snapshots' | 'stream' | 'rankings' | 'leaderboard';
export type PollerStatus = {
  name: PollerName;
  exchange: string;
  lastStartedAt: Date | null;
  lastOkAt: Date | null;
  lastErrorAt: Date | null;
  lastError: string | null;
  consecutiveFailures: number;
  progress: Record<string, unknown> | null;
};

/** The perps pollers' progress, one row each: what the observatory reports as each exchange's status. */
export function createPerpsPollerStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async ok(name: PollerName, exchange: string, at: Date, progress: Record<string, unknown>): Promise<void> {
      await db('perps_pollers')
        .insert({ name, exchange, last_started_at: at, last_ok_at: at, consecutive_failures: 0, progress: JSON.stringify(progress) })
        .onConflict('name')
        .merge({ exchange, last_ok_at: at, consecutive_failures: 0, progress: JSON.stringify(progress) });
    },

    async failed(name: PollerName, exchange: string, at: Date, error: string): Promise<void> {
      await db('perps_pollers')
        .insert({ name, exchange, last_error_at: at, last_error: error.slice(0, 500), consecutive_failures: 1 })
        .onConflict('name')
        .merge({ exchange, last_error_at: at, last_error: error.slice(0, 500), consecutive_failures: db.raw('perps_pollers.consecutive_failures + 1') });
    },

    async all(): Promise<PollerStatus[]> {
      const rows = await db('perps_pollers').orderBy('name');
      return rows.map((r: Record<string, any>) => ({
        name: r.name,
        exchange: r.exchange,
        lastStartedAt: r.last_started_at,
        lastOkAt: r.last_ok_at,
        lastErrorAt: r.last_error_at,
        lastError: r.last_error,
        consecutiveFailures: r.consecutive_failures,
        progress: r.progress,
      }));
    },
  };
}
export type PerpsPollerStore = ReturnType<typeof createPerpsPollerStore>;
