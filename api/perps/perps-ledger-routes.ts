import { Router } from 'express';
import { PERPS_TRACK, type PerpsLedgerStore } from '../../db/perps/perps-ledger-store';
import { capRows } from '../http/query-caps';

/** GET /api/perps/ledger/commits: the perps track's hourly commits, newest first. */
export function perpsLedgerRoutes(d: { ledgerStore: PerpsLedgerStore }): Router {
  const r = Router();
  r.get('/api/perps/ledger/commits', async (req, res) => {
    const [commits, count] = await Promise.all([d.ledgerStore.list(capRows(Number(req.query.limit ?? 50))), d.ledgerStore.count()]);
    res.set('Cache-Control', 'public, max-age=60').json({
      track: PERPS_TRACK,
      count,
      commits: commits.map((c) => ({
        track: PERPS_TRACK,
        hour_start: c.hourStart.toISOString(),
        hour_end: new Date(c.hourStart.getTime() + 3_600_000).toISOString(),
        merkle_root_hex: c.rootHex,
        prev_root_hex: c.prevRootHex,
        leaf_count: c.leafCount,
        leaf_version: c.leafVersion,
        first_id: c.firstId,
        last_id: c.lastId,
        record_digest_hex: c.digestHex,
        committed_at: c.committedAt.toISOString(),
      })),
    });
  });
  return r;
}
