import { canonicalJson } from '../digest/canonical-json';
import { digestToHex, isDigestHex, sha256Utf8 } from '../digest/ledger-digest';
import { isUtcHourStart } from './ledger-hour';
import { TRACK_NAME_PATTERN } from './ledger-tracks';

/**
 * One track's commit of one closed UTC hour, and its canonical form. The record carries the previous commit's
 * root (of the same track; null for the track's first commit), so the commits form a hash chain: removing or
 * altering a commit breaks the link of the one after it (see `verifyCommitChain`).
 *
 * Canonical form (record_version 1), RFC 8785 JSON with these members and no others:
 *   {"first_id":<int>,"hour":"<YYYY-MM-DDTHH:00:00.000Z>","last_id":<int>,"leaf_count":<int>,
 *    "leaf_version":<int>,"prev_root":"<64 hex>"|null,"record_version":1,"root":"<64 hex>","track":"<track>"}
 * `first_id` and `last_id` are the ids of the first and last leaves in tree order (not the smallest and
 * largest). The record digest is SHA-256 of those UTF-8 bytes, in lowercase hex.
 */
export type CommitRecord = {
  track: string;
  hourStart: Date;
  leafVersion: number;
  leafCount: number;
  firstId: number;
  lastId: number;
  rootHex: string;
  prevRootHex: string | null;
};

export const COMMIT_RECORD_VERSION = 1;

export function commitRecordPayload(r: CommitRecord): string {
  if (!TRACK_NAME_PATTERN.test(r.track)) throw new RangeError(`bad track name ${r.track}`);
  if (!isUtcHourStart(r.hourStart)) throw new RangeError('a commit hour starts on a whole UTC hour');
  for (const [name, n, min] of [
    ['leafVersion', r.leafVersion, 1],
    ['leafCount', r.leafCount, 1],
    ['firstId', r.firstId, 1],
    ['lastId', r.lastId, 1],
  ] as const) {
    if (!Number.isSafeInteger(n) || n < min) throw new RangeError(`${name} must be an integer ≥ ${min}`);
  }
  if (!isDigestHex(r.rootHex)) throw new RangeError('root must be 64 lowercase hex digits');
  if (r.prevRootHex !== null && !isDigestHex(r.prevRootHex)) throw new RangeError('prev_root must be 64 lowercase hex digits or null');
  return canonicalJson({
    first_id: r.firstId,
    hour: r.hourStart.toISOString(),
    last_id: r.lastId,
    leaf_count: r.leafCount,
    leaf_version: r.leafVersion,
    prev_root: r.prevRootHex,
    record_version: COMMIT_RECORD_VERSION,
    root: r.rootHex,
    track: r.track,
  });
}

export function commitRecordDigestHex(r: CommitRecord): string {
  return digestToHex(sha256Utf8(commitRecordPayload(r)));
}
