import { Router } from 'express';
import type { WalletReadStore } from '../../db/wallets/wallet-read-store';
import { canonicalLeaderboardKind, DEFAULT_MIN_TOTAL, type LeaderboardKind, type RankedWallet } from '../../domain/wallets/leaderboards';
import type { SmartCriteria, SmartScoreVersion } from '../../domain/wallets/smart-score';
import type { WalletRecord } from '../../domain/wallets/wallet-record';
import { leaderboardView } from '../../domain/wallets/wallet-views';
import type { ReadCache } from './read-cache';
import { INT4_MAX } from '../http/query-caps';

/** Every leaderboard is read at the largest limit and sliced per request, so the limit is not part of the cache key. */
const MAX_LIMIT = 200;

export type LeaderboardRouteDeps = {
  walletReadStore: WalletReadStore;
  scoreVersion: () => Promise<SmartScoreVersion>;
  smartCriteria: SmartCriteria;
  leaderboardCache: ReadCache<{ record: WalletRecord; score: number }[]>;
};

/**
 * `/api/v1/wallets/leaderboard`: served from this process's memory for a short while (a leaderboard changes only as
 * mints resolve), each (kind, min_total, version) read once per period however many clients ask (read-cache.ts).
 */
export function leaderboardRoutes(d: LeaderboardRouteDeps): Router {
  const r = Router();
  r.get('/api/v1/wallets/leaderboard', async (req, res) => {
    const q = req.query as { kind?: string; limit?: number; min_total?: number };
    // The validator admitted only the enum's values; `graduate` is the documented alias of `service`.
    const kind: LeaderboardKind = canonicalLeaderboardKind(q.kind ?? 'smart') ?? 'smart';
    // No wallet bought more launches than an int4 holds: a larger floor selects the same nobody.
    const minTotal = Math.min(q.min_total ?? DEFAULT_MIN_TOTAL, INT4_MAX);
    const limit = q.limit ?? 50;
    const smart = await d.scoreVersion();
    const { at, value } = await d.leaderboardCache.get(`${kind}:${minTotal}:${smart.id}`, () =>
      d.walletReadStore.leaderboard(kind, minTotal, MAX_LIMIT, smart),
    );
    const ranked: RankedWallet<WalletRecord>[] = value.slice(0, limit).map((w, i) => ({ rank: i + 1, score: w.score, record: w.record }));
    res.set('Cache-Control', 'no-store').json(leaderboardView(kind, ranked, { minTotal, generatedAt: new Date(at), smart, criteria: d.smartCriteria }));
  });
  return r;
}
