import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type FeedStatus = { name: string; connected: boolean; reportedAt: Date; lastEventAt: Date | null };

/** What each launch feed last reported (the ingest daemon writes `ingest_feed_stats` every 30 s). */
export function createFeedStatusReader(handle: Db) {
  const db = knexOf(handle);
  return async (): Promise<FeedStatus[]> => {
    const rows = await db('ingest_feed_stats').select('feed', 'stats', 'updated_at').orderBy('feed');
    return rows.map((r: { feed: string; stats: { connected?: boolean; lastEventAt?: string | null }; updated_at: Date }) => ({
      name: r.feed,
      connected: r.stats?.connected === true,
      reportedAt: r.updated_at,
      lastEventAt: r.stats?.lastEventAt ? new Date(r.stats.lastEventAt) : null,
    }));
  };
}
