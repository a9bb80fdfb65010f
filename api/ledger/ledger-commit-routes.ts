import { Router } from 'express';
import type { LedgerCommitStore } from '../../db/ledger/ledger-commit-store';
import { commitView } from './ledger-commit-view';
import { capRows, LAST_UNIX_SECOND } from '../http/query-caps';

type CommitsQuery = { since?: number; limit?: number; track?: string };

/**
 * Commit lists, in chain order (oldest first: each commit's `prev_root_hex` is the root of the one before it). With
 * `since` (unix seconds of an hour start), the commits after it, to page forward with `next_since`; without it, the
 * newest ones.
 */
export function ledgerCommitRoutes(d: { commitStore: LedgerCommitStore }): Router {
  const r = Router();
  const list = async (track: string, q: CommitsQuery, defaultLimit: number) => {
    const since = q.since === undefined ? undefined : new Date(Math.min(Number(q.since), LAST_UNIX_SECOND) * 1000);
    const commits = await d.commitStore.list(track, { since, limit: capRows(Number(q.limit ?? defaultLimit)) });
    const last = commits[commits.length - 1];
    return {
      track,
      count: commits.length,
      commits: commits.map(commitView),
      next_since: last ? last.hourStart.getTime() / 1000 : q.since === undefined ? null : Number(q.since),
    };
  };
  r.get('/api/ledger/commits', async (req, res) => {
    const q = req.query as CommitsQuery;
    res.set('Cache-Control', 'public, max-age=30').json(await list(q.track ?? 'grad_prob', q, 200));
  });
  r.get('/api/v1/composite_ledger', async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await list('composite', { limit: (req.query as CommitsQuery).limit }, 50));
  });
  return r;
}
