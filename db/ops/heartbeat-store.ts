import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type Heartbeat = { name: string; instance: string; lastSeenAt: Date };

export function createHeartbeatStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async beat(name: string, instance: string, startedAt: Date, at: Date): Promise<void> {
      await db('daemon_heartbeats')
        .insert({ name, instance, started_at: startedAt, last_seen_at: at })
        .onConflict(['name', 'instance'])
        .merge({ last_seen_at: at });
    },

    /** The newest heartbeat of each daemon name. */
    async latest(): Promise<Heartbeat[]> {
      const rows = await db('daemon_heartbeats')
        .distinctOn('name')
        .select('name', 'instance', 'last_seen_at')
        .orderBy([{ column: 'name' }, { column: 'last_seen_at', order: 'desc' }]);
      return rows.map((r) => ({ name: r.name, instance: r.instance, lastSeenAt: r.last_seen_at }));
    },
  };
}
export type HeartbeatStore = ReturnType<typeof createHeartbeatStore>;
