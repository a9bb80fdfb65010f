import { DIGEST_BYTES, sha256 } from '../digest/ledger-digest';

/**
 * The same root as `merkleRoot`, fed one leaf at a time in tree order, holding one pending node per level
 * (log2(n) digests): a commit can stream an hour's rows from a cursor and never hold them all.
 *
 * Finishing walks the pending nodes bottom up with the node carried from below. A node left alone on a level
 * below the top one is the last node of an odd level, so it pairs with itself, exactly as the level-by-level
 * tree does; the top pending node (with whatever is carried into it) is the root.
 */
export class MerkleRootAccumulator {
  private readonly pending: (Uint8Array | null)[] = [];
  private readonly pair = new Uint8Array(2 * DIGEST_BYTES);
  private leaves = 0;

  get count(): number {
    return this.leaves;
  }

  add(leafHash: Uint8Array): void {
    if (leafHash.length !== DIGEST_BYTES) throw new RangeError('a leaf is a 32-byte digest');
    let carry: Uint8Array = Uint8Array.from(leafHash);
    let level = 0;
    for (let left = this.pending[level]; left; left = this.pending[level]) {
      carry = this.parent(left, carry);
      this.pending[level] = null;
      level++;
    }
    this.pending[level] = carry;
    this.leaves++;
  }

  root(): Uint8Array {
    if (this.leaves === 0) throw new RangeError('an empty hour has no tree (and no commit)');
    const top = this.pending.length - 1;
    let carry: Uint8Array | null = null;
    for (let level = 0; level <= top; level++) {
      const left = this.pending[level] ?? null;
      if (left && carry) carry = this.parent(left, carry);
      else if (left || carry) carry = level < top ? this.parent(left ?? carry!, left ?? carry!) : (left ?? carry);
    }
    // A copy: the top pending node is this accumulator's own state.
    return Uint8Array.from(carry!);
  }

  private parent(left: Uint8Array, right: Uint8Array): Uint8Array {
    this.pair.set(left, 0);
    this.pair.set(right, DIGEST_BYTES);
    return sha256(this.pair);
  }
}
