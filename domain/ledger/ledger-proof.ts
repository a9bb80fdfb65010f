import type { HourCommit } from './commit-chain';
import { digestFromHex, digestToHex, isDigestHex, sha256Utf8 } from '../digest/ledger-digest';
import { utcHourEnd } from './ledger-hour';
import { readLeafPayload } from './ledger-tracks';
import { merkleProof, proofShape, sameDigest, walkProof, type ProofSide } from './merkle-tree';

/**
 * A leaf's inclusion proof as JSON, the form the API serves and `test/verifiers/verify_proof.py` reads
 * (docs/ledger-format.md). Hashes are lowercase hex; `siblings` run from the leaf up to just below the root.
 */
export type ProofDocument = {
  track: string;
  leaf_version: number;
  /** The commit hour's start, `YYYY-MM-DDTHH:00:00.000Z`. */
  hour: string;
  leaf_index: number;
  leaf_count: number;
  /** The canonical JSON text; its UTF-8 bytes are what `leaf_hash` hashes. */
  leaf_payload: string;
  leaf_hash: string;
  siblings: { hash: string; side: ProofSide }[];
  merkle_root_hex: string;
};

export function proofDocument(commit: HourCommit, index: number): ProofDocument {
  const leaf = commit.leaves[index];
  if (!leaf) throw new RangeError(`no leaf ${index} in this commit`);
  return {
    track: commit.record.track,
    leaf_version: commit.record.leafVersion,
    hour: commit.record.hourStart.toISOString(),
    leaf_index: index,
    leaf_count: commit.record.leafCount,
    leaf_payload: leaf.payload,
    leaf_hash: digestToHex(leaf.hash),
    siblings: merkleProof(commit.levels, index).map((s) => ({ hash: digestToHex(s.hash), side: s.side })),
    merkle_root_hex: commit.record.rootHex,
  };
}

export type ProofVerdict = { ok: true } | { ok: false; problem: string };

/**
 * Everything a third party checks, in the order the Python verifier checks it: the payload is a canonical
 * leaf of the stated track and version, whose time (`predicted_at`, `detected_at` for perps v1) is in the stated hour; it hashes to `leaf_hash`; the path
 * has exactly the shape its index and the hour's leaf count give; walking it arrives at the root.
 *
 * A proof alone can only vouch for itself: with a forged `leaf_count` (4 for a 3-leaf hour) the self-paired
 * copy of the last leaf passes for a fourth leaf. Pass the commit as published (commits list, anchor) and
 * the proof's track, hour, count and root must match it.
 */
export function verifyProofDocument(doc: ProofDocument, commit?: { track: string; hourStart: Date; leafCount: number; rootHex: string }): ProofVerdict {
  const fail = (problem: string): ProofVerdict => ({ ok: false, problem });
  if (commit) {
    const matches =
      doc.track === commit.track &&
      doc.hour === commit.hourStart.toISOString() &&
      doc.leaf_count === commit.leafCount &&
      doc.merkle_root_hex === commit.rootHex;
    if (!matches) return fail('proof does not match the published commit (track, hour, leaf count, root)');
  }
  if (typeof doc.leaf_payload !== 'string') return fail('leaf_payload is not a string');
  const read = readLeafPayload(doc.leaf_payload);
  if (!read.ok) return fail(read.problem);
  if (read.track !== doc.track || read.leafVersion !== doc.leaf_version) return fail('payload track or leaf version differs from the proof');
  const hourStart = new Date(doc.hour);
  if (!Number.isFinite(hourStart.getTime()) || hourStart.toISOString() !== doc.hour) return fail('hour is not YYYY-MM-DDTHH:00:00.000Z');
  const at = new Date(String(read.leaf[read.timeField])).getTime();
  if (!(at >= hourStart.getTime() && at < utcHourEnd(hourStart).getTime())) return fail(`leaf ${read.timeField} is outside the hour`);

  if (!isDigestHex(doc.leaf_hash) || !isDigestHex(doc.merkle_root_hex)) return fail('leaf_hash and merkle_root_hex must be 64 lowercase hex digits');
  const leafHash = sha256Utf8(doc.leaf_payload);
  if (digestToHex(leafHash) !== doc.leaf_hash) return fail('leaf_hash is not SHA-256 of the payload');

  let shape: ReturnType<typeof proofShape>;
  try {
    shape = proofShape(doc.leaf_index, doc.leaf_count);
  } catch (e) {
    return fail((e as Error).message);
  }
  if (!Array.isArray(doc.siblings) || doc.siblings.length !== shape.length) return fail(`a leaf of ${doc.leaf_count} has ${shape.length} siblings`);
  let node = leafHash;
  for (const [i, s] of doc.siblings.entries()) {
    if (!isDigestHex(s?.hash)) return fail(`sibling ${i} is not 64 lowercase hex digits`);
    if (s.side !== shape[i]!.side) return fail(`sibling ${i} should be on the ${shape[i]!.side}`);
    const step = { hash: digestFromHex(s.hash), side: s.side };
    if (shape[i]!.selfPaired && !sameDigest(step.hash, node)) return fail(`sibling ${i} pairs the node with itself and must equal it`);
    node = walkProof(node, [step]);
  }
  return digestToHex(node) === doc.merkle_root_hex ? { ok: true } : fail('path does not arrive at the root');
}
