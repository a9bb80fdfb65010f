import { isDigestHex } from '../digest/ledger-digest';
import { asciiText, fieldList, isoMillis, LeafFieldError, oneOf, safeInteger, sealLeaf, type LeafFormat } from './leaf-fields';

/**
 * The verdict track's leaf, version 1: one locked pre-registered verdict (issue 21). It pins the branch, the
 * registration it judges (id and the SHA-256 of its document) and the SHA-256 of the canonical evaluation, whose
 * full bytes `/api/verdict` serves; `predicted_at` is the lock time (every leaf's tree time). Frozen like every
 * leaf version.
 */
export type VerdictLeafInputV1 = {
  id: number;
  lockedAt: Date;
  preregistrationId: string;
  preregistrationSha256: string;
  branch: string;
  verdict: string;
  windowStart: Date;
  windowEnd: Date;
  evaluationSha256: string;
};

const BRANCHES = ['confirmed', 'ordered_but_weak', 'not_separated', 'insufficient_data'];
const VERDICTS = ['supported', 'not_supported', 'inconclusive'];

function digest(hex: string, field: string): string {
  if (!isDigestHex(hex)) throw new LeafFieldError(`${field}: 64 lowercase hex digits`);
  return hex;
}

export const VERDICT_LEAF_V1: LeafFormat<VerdictLeafInputV1> = Object.freeze({
  track: 'verdict',
  version: 1,
  fields: fieldList(
    'branch', // confirmed | ordered_but_weak | not_separated | insufficient_data
    'evaluation_sha256', // 64 lowercase hex: SHA-256 of the evaluation's canonical JSON
    'id', // the verdict row id (integer ≥ 1)
    'leaf_version', // 1
    'predicted_at', // the lock time, ISO-8601 UTC, milliseconds, Z
    'preregistration_id',
    'preregistration_sha256', // 64 lowercase hex: SHA-256 of the registration document's bytes
    'track', // "verdict"
    'verdict', // supported | not_supported | inconclusive
    'window_end', // ISO-8601 UTC, milliseconds, Z
    'window_start',
  ),
  build(p) {
    const leaf = {
      branch: oneOf(p.branch, BRANCHES, 'branch'),
      evaluation_sha256: digest(p.evaluationSha256, 'evaluation_sha256'),
      id: safeInteger(p.id, 'id', { min: 1 }),
      leaf_version: 1,
      predicted_at: isoMillis(p.lockedAt, 'predicted_at'),
      preregistration_id: asciiText(p.preregistrationId, 'preregistration_id'),
      preregistration_sha256: digest(p.preregistrationSha256, 'preregistration_sha256'),
      track: 'verdict',
      verdict: oneOf(p.verdict, VERDICTS, 'verdict'),
      window_end: isoMillis(p.windowEnd, 'window_end'),
      window_start: isoMillis(p.windowStart, 'window_start'),
    };
    return sealLeaf(VERDICT_LEAF_V1, leaf.id, p.lockedAt, leaf);
  },
});
