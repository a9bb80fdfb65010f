import { DIGEST_BYTES, sha256 } from '../digest/ledger-digest';

/**
 * The binary merkle tree of an hour's leaves (spec section 2), over raw 32-byte SHA-256 digests:
 * parent = SHA-256(left ‖ right); a level with an odd number of nodes pairs its last node with itself; one
 * leaf is its own root (a proof with no steps). Leaves go in the order `compareLeafOrder` gives.
 *
 * Pairing the odd node with itself makes the root of [a, b, c] equal the root of [a, b, c, c] (the ambiguity
 * Bitcoin's tree has). Commits therefore record their leaf count, and proofs carry the leaf's index and that
 * count: a verifier checks the path has exactly the sides `proofShape(index, count)` prescribes, and that a
 * self-paired step's sibling is the node itself.
 *
 * An empty hour has no commit and so no root. `EMPTY_TREE_ROOT` (SHA-256 of no bytes, what some ledgers call
 * an empty tree's root) is exported for readers of that convention; nothing here commits it.
 *
 * Leaves are passed packed end to end in one Uint8Array (32 bytes each): 200,000 leaves are 6.4 MB in one
 * allocation rather than 200,000 small arrays.
 */
export type ProofSide = 'left' | 'right';
/** One step from the leaf towards the root: the sibling digest and which side of the pair it sits on. */
export type ProofStep = { hash: Uint8Array; side: ProofSide };

export const EMPTY_TREE_ROOT: Uint8Array = sha256(new Uint8Array(0));

export function packDigests(digests: readonly Uint8Array[]): Uint8Array {
  const packed = new Uint8Array(digests.length * DIGEST_BYTES);
  digests.forEach((d, i) => {
    if (d.length !== DIGEST_BYTES) throw new RangeError(`leaf ${i} is not a 32-byte digest`);
    packed.set(d, i * DIGEST_BYTES);
  });
  return packed;
}

export function digestAt(packed: Uint8Array, index: number): Uint8Array {
  return packed.slice(index * DIGEST_BYTES, (index + 1) * DIGEST_BYTES);
}

function countOf(packed: Uint8Array): number {
  if (packed.length === 0) throw new RangeError('an empty hour has no tree (and no commit)');
  if (packed.length % DIGEST_BYTES !== 0) throw new RangeError('packed leaves must be a whole number of 32-byte digests');
  return packed.length / DIGEST_BYTES;
}

/** Hashes one level into the next; `out` may be `level` itself (parent i only overwrites nodes already read). */
function hashLevel(level: Uint8Array, count: number, out: Uint8Array): number {
  const parents = (count + 1) >>> 1;
  const selfPair = new Uint8Array(2 * DIGEST_BYTES);
  for (let i = 0; i < parents; i++) {
    const at = 2 * i * DIGEST_BYTES;
    let parent: Uint8Array;
    if (2 * i + 1 < count) {
      parent = sha256(level.subarray(at, at + 2 * DIGEST_BYTES));
    } else {
      selfPair.set(level.subarray(at, at + DIGEST_BYTES), 0);
      selfPair.set(level.subarray(at, at + DIGEST_BYTES), DIGEST_BYTES);
      parent = sha256(selfPair);
    }
    out.set(parent, i * DIGEST_BYTES);
  }
  return parents;
}

/** The root, level by level in one buffer half the size of the leaves. */
export function merkleRoot(packedLeaves: Uint8Array): Uint8Array {
  let count = countOf(packedLeaves);
  if (count === 1) return packedLeaves.slice(0, DIGEST_BYTES);
  const work = new Uint8Array(((count + 1) >>> 1) * DIGEST_BYTES);
  count = hashLevel(packedLeaves, count, work);
  while (count > 1) count = hashLevel(work, count, work);
  return work.slice(0, DIGEST_BYTES);
}

/**
 * Every level, leaves first and the 32-byte root last (about twice the leaves' size in all): what a proof
 * server keeps so each proof is a lookup of log2(n) siblings. `levels[0]` is the array passed in.
 */
export function merkleLevels(packedLeaves: Uint8Array): Uint8Array[] {
  let count = countOf(packedLeaves);
  const levels = [packedLeaves];
  while (count > 1) {
    const next = new Uint8Array(((count + 1) >>> 1) * DIGEST_BYTES);
    count = hashLevel(levels[levels.length - 1]!, count, next);
    levels.push(next);
  }
  return levels;
}

/** The sides a proof of leaf `index` among `count` leaves has, leaf to root, and which steps are self-pairs. */
export function proofShape(index: number, count: number): { side: ProofSide; selfPaired: boolean }[] {
  if (!Number.isSafeInteger(count) || count < 1) throw new RangeError('a tree has at least one leaf');
  if (!Number.isSafeInteger(index) || index < 0 || index >= count) throw new RangeError(`leaf index ${index} is outside 0..${count - 1}`);
  const shape: { side: ProofSide; selfPaired: boolean }[] = [];
  for (let i = index, n = count; n > 1; i >>>= 1, n = (n + 1) >>> 1) {
    shape.push(i % 2 === 1 ? { side: 'left', selfPaired: false } : { side: 'right', selfPaired: i + 1 >= n });
  }
  return shape;
}

/** The proof of leaf `index`: its siblings from the leaf level up to just below the root. */
export function merkleProof(levels: readonly Uint8Array[], index: number): ProofStep[] {
  const shape = proofShape(index, countOf(levels[0] ?? new Uint8Array(0)));
  return shape.map((step, level) => {
    const at = index >>> level;
    const sibling = step.side === 'left' ? at - 1 : step.selfPaired ? at : at + 1;
    return { hash: digestAt(levels[level]!, sibling), side: step.side };
  });
}

/** Walks `steps` up from `leafHash`; true when it arrives at `root`. Says nothing about the path's shape. */
export function verifyMerkleProof(leafHash: Uint8Array, steps: readonly ProofStep[], root: Uint8Array): boolean {
  return sameDigest(walkProof(leafHash, steps), root);
}

export function walkProof(leafHash: Uint8Array, steps: readonly ProofStep[]): Uint8Array {
  const pair = new Uint8Array(2 * DIGEST_BYTES);
  let node = leafHash;
  for (const s of steps) {
    if (s.hash.length !== DIGEST_BYTES || node.length !== DIGEST_BYTES) throw new RangeError('proof hashes are 32-byte digests');
    pair.set(s.side === 'left' ? s.hash : node, 0);
    pair.set(s.side === 'left' ? node : s.hash, DIGEST_BYTES);
    node = sha256(pair);
  }
  return node;
}

export function sameDigest(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
