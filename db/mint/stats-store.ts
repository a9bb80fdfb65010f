import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type PlatformStats = {
  launches24h: number;
  mayhem24h: number;
  graduations24h: number;
  trades24h: number;
  predictionsTotal: number;
  predictions24h: number;
  lastEventAt: Date | null;
  gaps24h: number;
};

export function createStatsStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async platform(now: Date): Promise<PlatformStats> {
      const since = new Date(now.getTime() - 24 * 3600_000);
      const [mints, grads, trades, preds, lastTrade, feeds] = await Promise.all([
        db('mints').where('created_at', '>=', since).select(db.raw('count(*)::int as n'), db.raw('count(*) FILTER (WHERE mayhem)::int as mayhem')).first(),
        db('mint_graduations')
          .where((q) => q.where('completed_at', '>=', since).orWhere('migrated_at', '>=', since))
          .count('* as n')
          .first(),
        db('trades').where('at', '>=', since).count('* as n').first(),
        db('predictions')
          .select(db.raw('count(*)::int as total'), db.raw('count(*) FILTER (WHERE predicted_at >= ?)::int as recent', [since]))
          .first(),
        db('trades').max('at as at').first(),
        db('ingest_feed_stats').select('stats'),
      ]);
      let gaps = 0;
      for (const f of feeds) for (const g of (f.stats?.gaps ?? []) as { from: string }[]) if (Date.parse(g.from) >= since.getTime()) gaps++;
      return {
        launches24h: mints?.n ?? 0,
        mayhem24h: mints?.mayhem ?? 0,
        graduations24h: Number(grads?.n ?? 0),
        trades24h: Number(trades?.n ?? 0),
        predictionsTotal: preds?.total ?? 0,
        predictions24h: preds?.recent ?? 0,
        lastEventAt: lastTrade?.at ?? null,
        gaps24h: gaps,
      };
    },

    async recordFeedStats(feed: string, stats: unknown, at: Date): Promise<void> {
      await db('ingest_feed_stats')
        .insert({ feed, stats: JSON.stringify(stats), updated_at: at })
        .onConflict('feed')
        .merge();
    },
  };
}
export type StatsStore = ReturnType<typeof createStatsStore>;
