import { Router } from 'express';
import type { LedgerCommitStore } from '../../db/ledger/ledger-commit-store';
import type { LedgerProofStore } from '../../db/ledger/ledger-proof-store';
import type { LedgerRows } from '../../db/ledger/ledger-row-sources';
import type { RegisteredDocument } from '../../db/verdict/preregistration-document';
import type { StoredVerdict, VerdictStore } from '../../db/verdict/verdict-store';
import { digestToHex } from '../../domain/digest/ledger-digest';
import { commitExpectedBy } from '../../domain/ledger/ledger-schedule';
import { stepsFromPath } from '../../domain/ledger/proof-path';
import type { Preregistration } from '../../domain/verdict/preregistration';
import type { PendingStatus } from '../../domain/verdict/verdict-status';
import { iso } from '../http/iso';

export type VerdictRouteDeps = {
  verdictStore: VerdictStore;
  registration: Preregistration;
  document: () => RegisteredDocument;
  commitStore: LedgerCommitStore;
  proofStore: LedgerProofStore;
  verdictRows: LedgerRows;
  graceS: number;
  commitEveryS: number;
};

const HYPOTHESIS =
  'The composite signal’s three tiers separate forward outcomes: the share of crosses reaching 5x the price at the cross within 24 h is ' +
  'ordered ACT > WATCH > SCOUT with a material gap, and ACT’s share beats every scored launch of the same period with 95% one-sided confidence.';
const CRITERIA =
  'C1 ordered: rate(ACT) > rate(WATCH) > rate(SCOUT); C2 gap: each adjacent ratio >= 1.5; C3 act_beats_benchmark: rate(ACT) > B; C4 ' +
  'act_lower_bound_beats_benchmark: one-sided 95% Wilson lower bound of rate(ACT) > B, where B is the 5x rate of every non-mayhem mint ' +
  'scored at 60 s in the window. Minimums: 50 crosses per tier, 14 days, 10,000 benchmark mints, all resolved. confirmed (supported): all ' +
  'four; ordered_but_weak (not_supported): C1 and not all others; not_separated (not_supported): not C1; insufficient_data (inconclusive): ' +
  'minimums not met by the deadline.';

/**
 * `GET /api/verdict`: the registration (id, document, its SHA-256, T0, deadline), then either the locked verdict (branch, per-tier
 * figures, criteria results, the canonical evaluation and its SHA-256, the ledger leaf and its commit) or `pending` with what is
 * missing as of the evaluator's last hourly run.
 */
export function verdictRoutes(d: VerdictRouteDeps): Router {
  const r = Router();

  async function ledgerOf(v: StoredVerdict) {
    const [leaf, path] = await Promise.all([d.verdictRows.leafOf(v.id), d.proofStore.path('verdict', v.id)]);
    const commit = path ? await d.commitStore.byId(path.commitId) : null;
    const base = { track: 'verdict', verdict_id: v.id, leaf_payload: leaf?.payload ?? null, leaf_hash: leaf ? digestToHex(leaf.hash) : null };
    if (!path || !commit)
      return { ...base, status: 'pending' as const, commit_expected_by: iso(commitExpectedBy(v.lockedAt, d.graceS, d.commitEveryS)), commit: null };
    const steps = stepsFromPath(path.leafIndex, commit.leafCount, path.leaf, path.partners);
    return {
      ...base,
      status: 'committed' as const,
      commit_expected_by: null,
      commit: {
        commit_id: commit.id,
        hour: iso(commit.hourStart),
        leaf_index: path.leafIndex,
        leaf_count: commit.leafCount,
        siblings: steps.map((s) => ({ hash: digestToHex(s.hash), side: s.side })),
        merkle_root_hex: commit.rootHex,
        record_digest_hex: commit.digestHex,
        committed_at: iso(commit.committedAt),
      },
    };
  }

  r.get('/api/verdict', async (_req, res) => {
    const p = d.registration;
    const doc = d.document();
    const registration = {
      preregistration_id: p.id,
      document: doc.path,
      registered_at: iso(p.registeredAtMs),
      registration_sha256: doc.sha256,
      hypothesis: HYPOTHESIS,
      criteria: CRITERIA,
      t0: iso(p.t0Ms),
      deadline: iso(p.deadlineMs),
    };
    const v = await d.verdictStore.locked(p.id);
    if (v) {
      const e = v.evaluation;
      res.set('Cache-Control', 'public, max-age=300').json({
        ...registration,
        verdict: v.verdict,
        branch: v.branch,
        window_start: iso(v.windowStart),
        window_end: iso(v.windowEnd),
        lock_point: iso(v.windowEnd),
        locked_at: iso(v.lockedAt),
        evaluated_at: iso(v.lockedAt),
        tiers: e.tiers,
        benchmark: e.benchmark,
        criteria_results: e.criteria,
        missing: [],
        snapshot: v.evaluationCanonical,
        snapshot_sha256: v.evaluationSha256,
        ledger: await ledgerOf(v),
      });
      return;
    }
    const status = await d.verdictStore.status(p.id);
    const s = status?.status as PendingStatus | undefined;
    res.set('Cache-Control', 'public, max-age=60').json({
      ...registration,
      verdict: 'pending',
      branch: null,
      window_start: iso(p.t0Ms),
      window_end: s?.lock_point ?? null,
      lock_point: s?.lock_point ?? null,
      locked_at: null,
      evaluated_at: status ? iso(status.evaluatedAt) : null,
      tiers: s?.tiers ?? [],
      benchmark: null,
      criteria_results: null,
      missing: s ? s.missing : [{ kind: 'not_evaluated' }],
      snapshot: null,
      snapshot_sha256: null,
      ledger: null,
    });
  });
  return r;
}
