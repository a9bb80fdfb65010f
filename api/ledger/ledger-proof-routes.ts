import { Router } from 'express';
import type { LedgerCommitStore, StoredCommit } from '../../db/ledger/ledger-commit-store';
import type { LedgerProofStore } from '../../db/ledger/ledger-proof-store';
import type { LedgerRows } from '../../db/ledger/ledger-row-sources';
import { digestToHex } from '../../domain/digest/ledger-digest';
import { utcHourEnd, utcHourStart } from '../../domain/ledger/ledger-hour';
import { commitExpectedBy } from '../../domain/ledger/ledger-schedule';
import { stepsFromPath } from '../../domain/ledger/proof-path';
import { sameDigest } from '../../domain/ledger/merkle-tree';
import type { Logger } from '../../platform/logger';
import { HttpError } from '../http/http-error';
import { anchorView } from './ledger-commit-view';

export type LedgerProofDeps = {
  proofStore: LedgerProofStore;
  commitStore: LedgerCommitStore;
  /** The rows of each committed track; a proof is asked for by track (`grad_prob` unless `track` says otherwise). */
  rows: readonly LedgerRows[];
  graceS: number;
  commitEveryS: number;
  log: Logger;
  now: () => Date;
};

const VERIFICATION =
  'leaf_hash = SHA-256(UTF-8 bytes of leaf_payload); then for each sibling from the leaf up, node = SHA-256(sibling || node) when side is ' +
  'left, SHA-256(node || sibling) when right, over raw 32-byte digests; the last node must equal merkle_root_hex, which must equal the ' +
  "hour's commit in /api/ledger/commits (same leaf_count). Field lists, canonical JSON and the tree: openapi.yaml LedgerProof, docs/ledger-format.md.";

/** Commits never change once made; an anchor is added once. Kept per process, a few thousand at most. */
function commitCache(store: LedgerCommitStore, now: () => number) {
  const cache = new Map<number, { commit: StoredCommit; at: number }>();
  return async (id: number): Promise<StoredCommit | null> => {
    const hit = cache.get(id);
    // Until its anchor is confirmed a commit is read again now and then, to show the anchor once it lands.
    if (hit && (hit.commit.anchor || now() - hit.at < 10_000)) return hit.commit;
    const commit = await store.byId(id);
    if (!commit) return null;
    if (cache.size >= 4096) cache.delete(cache.keys().next().value!);
    cache.set(id, { commit, at: now() });
    return commit;
  };
}

/**
 * The inclusion proof of a row of one track (grad_prob, or the one `?track=` names), cut from the stored tree levels (log2(n) slices, never a rebuilt
 * tree) around the leaf rebuilt from the row as it is stored now: a row changed after its commit gives a proof that
 * fails verification, as it must. 404 with `status` for an unknown prediction (`unknown`), one whose hour is not
 * committed yet (`pending`, with `commit_expected_by`), or a committed row no longer stored (`removed`).
 */
export function ledgerProofRoutes(d: LedgerProofDeps): Router {
  const r = Router();
  const commitOf = commitCache(d.commitStore, () => d.now().getTime());
  const notFound = (body: Record<string, unknown> & { message: string }, headers: Record<string, string> = {}) =>
    new HttpError(404, { error: 'not_found', hour_start: null, commit_expected_by: null, ...body }, headers);

  r.get('/api/ledger/proof/:prediction_id', async (req, res) => {
    const id = Number(req.params.prediction_id);
    const track = String((req.query as { track?: string }).track ?? 'grad_prob');
    const rows = d.rows.find((x) => x.track === track);
    // The contract's enum admits only committed tracks; a track without rows here is a wiring fault, not bad input.
    if (!rows) throw new Error(`ledger: no row source for track ${track}`);
    // The path and the row in parallel: one round trip's wait (the commit is cached per process).
    const [path, read] = await Promise.all([
      d.proofStore.path(track, id),
      rows.leafOf(id).then(
        (leaf) => ({ leaf }),
        (err: unknown) => ({ err }),
      ),
    ]);
    if (!path) {
      // Not committed: a row whose leaf cannot be built yet is still `pending` (the commit holds it back), not a 500.
      const at = 'leaf' in read && read.leaf === null ? null : await rows.timeOf(id);
      if (!at) throw notFound({ message: `no prediction ${id}`, prediction_id: id, status: 'unknown' });
      const expected = commitExpectedBy(at, d.graceS, d.commitEveryS);
      const late = expected.getTime() <= d.now().getTime();
      throw notFound(
        {
          message: late
            ? `prediction ${id} is not committed yet and its commit is overdue (the ledger's scheduler is behind or down)`
            : `prediction ${id} is not committed yet: its hour is committed ${d.graceS} s after it closes`,
          prediction_id: id,
          status: 'pending',
          hour_start: utcHourStart(at).toISOString(),
          commit_expected_by: expected.toISOString(),
        },
        { 'Retry-After': String(late ? d.commitEveryS : Math.ceil((expected.getTime() - d.now().getTime()) / 1000)) },
      );
    }
    if ('err' in read) throw read.err;
    const { leaf } = read;
    const commit = await commitOf(path.commitId);
    if (!commit) throw new Error(`leaf of prediction ${id} names commit ${path.commitId}, which is not stored`);
    const steps = stepsFromPath(path.leafIndex, commit.leafCount, path.leaf, path.partners);
    const hour = { hour_start: commit.hourStart.toISOString(), commit_expected_by: null };
    if (!leaf) throw notFound({ message: `prediction ${id} was committed but is no longer stored`, prediction_id: id, status: 'removed', ...hour });
    if (!sameDigest(leaf.hash, path.leaf))
      d.log.error({ predictionId: id, commitId: commit.id }, 'ledger: a committed prediction row no longer matches its leaf');
    res.set('Cache-Control', 'public, max-age=60').json({
      prediction_id: id,
      track: commit.track,
      leaf_version: commit.leafVersion,
      hour: commit.hourStart.toISOString(),
      hour_end: utcHourEnd(commit.hourStart).toISOString(),
      leaf_index: path.leafIndex,
      leaf_count: commit.leafCount,
      leaf_payload: leaf.payload,
      leaf_hash: digestToHex(leaf.hash),
      siblings: steps.map((s) => ({ hash: digestToHex(s.hash), side: s.side })),
      merkle_root_hex: commit.rootHex,
      prev_root_hex: commit.prevRootHex,
      record_digest_hex: commit.digestHex,
      committed_at: commit.committedAt.toISOString(),
      anchor: anchorView(commit),
      commit_url: `/api/ledger/commits?since=${commit.hourStart.getTime() / 1000 - 1}&limit=1${track === 'grad_prob' ? '' : `&track=${track}`}`,
      verification: VERIFICATION,
    });
  });
  return r;
}
