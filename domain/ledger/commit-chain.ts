import { commitRecordDigestHex, type CommitRecord } from './commit-record';
import { digestToHex } from '../digest/ledger-digest';
import { compareLeafOrder, utcHourEnd } from './ledger-hour';
import type { LedgerLeaf } from './leaf-fields';
import { merkleLevels, packDigests } from './merkle-tree';

export type HourCommit = {
  record: CommitRecord;
  /** The leaves in tree order: `leaves[i]` is proven with `merkleProof(levels, i)`. */
  leaves: LedgerLeaf[];
  levels: Uint8Array[];
};

/**
 * The commit of one track's closed hour from its leaves (in any order), chained to the track's previous
 * commit. Null for an empty hour: an empty hour has no commit, and the next commit links to the last one
 * there was. Refuses leaves of another track or leaf version, outside the hour, or with a repeated id.
 */
export function planHourCommit(input: {
  track: string;
  leafVersion: number;
  hourStart: Date;
  leaves: readonly LedgerLeaf[];
  previous: CommitRecord | null;
}): HourCommit | null {
  const { track, leafVersion, hourStart, previous } = input;
  if (input.leaves.length === 0) return null;
  const end = utcHourEnd(hourStart).getTime();
  const ids = new Set<number>();
  for (const leaf of input.leaves) {
    if (leaf.track !== track || leaf.leafVersion !== leafVersion)
      throw new RangeError(`leaf ${leaf.id} is ${leaf.track} v${leaf.leafVersion}, not ${track} v${leafVersion}`);
    const t = leaf.predictedAt.getTime();
    if (!(t >= hourStart.getTime() && t < end)) throw new RangeError(`leaf ${leaf.id} is outside the hour ${hourStart.toISOString()}`);
    if (ids.has(leaf.id)) throw new RangeError(`leaf id ${leaf.id} appears twice`);
    ids.add(leaf.id);
  }
  if (previous && (previous.track !== track || previous.hourStart.getTime() >= hourStart.getTime())) {
    throw new RangeError('the previous commit must be an earlier hour of the same track');
  }
  const leaves = [...input.leaves].sort(compareLeafOrder);
  const levels = merkleLevels(packDigests(leaves.map((l) => l.hash)));
  const record: CommitRecord = {
    track,
    hourStart,
    leafVersion,
    leafCount: leaves.length,
    firstId: leaves[0]!.id,
    lastId: leaves[leaves.length - 1]!.id,
    rootHex: digestToHex(levels[levels.length - 1]!),
    prevRootHex: previous?.rootHex ?? null,
  };
  commitRecordDigestHex(record); // validates the record's form now rather than when it is stored
  return { record, leaves, levels };
}

export type ChainVerdict = { ok: true } | { ok: false; index: number; problem: string };

/**
 * Checks commits of one track, oldest first: each links to the root of the one before it (the first to
 * `previousRootHex`, null when the list starts at the track's first commit), hours strictly increase, and a
 * stored record digest, when given, matches the record. A removed or re-rooted commit breaks the next link;
 * a commit whose other fields were edited fails its stored digest. What links cannot show is a truncated
 * tail (the newest commits removed): that needs the on-chain anchors.
 */
export function verifyCommitChain(records: readonly (CommitRecord & { digestHex?: string })[], opts: { previousRootHex?: string | null } = {}): ChainVerdict {
  let expectedPrev = opts.previousRootHex ?? null;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const before = records[i - 1];
    if (before && r.track !== before.track) return { ok: false, index: i, problem: `track ${r.track} after ${before.track}` };
    if (before && r.hourStart.getTime() <= before.hourStart.getTime()) return { ok: false, index: i, problem: 'hour not after the previous commit' };
    if (r.prevRootHex !== expectedPrev) {
      return { ok: false, index: i, problem: expectedPrev === null ? 'first commit links to a previous root' : 'prev_root is not the previous commit root' };
    }
    let digest: string;
    try {
      digest = commitRecordDigestHex(r);
    } catch (e) {
      return { ok: false, index: i, problem: `malformed record: ${(e as Error).message}` };
    }
    if (r.digestHex !== undefined && r.digestHex !== digest) return { ok: false, index: i, problem: 'record digest does not match the record' };
    expectedPrev = r.rootHex;
  }
  return { ok: true };
}
