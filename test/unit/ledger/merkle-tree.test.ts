import { createHash } from 'node:crypto';
import { MerkleRootAccumulator } from '../../../domain/ledger/merkle-root-accumulator';
import { EMPTY_TREE_ROOT, merkleLevels, merkleProof, merkleRoot, packDigests, proofShape, verifyMerkleProof } from '../../../domain/ledger/merkle-tree';

const h = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const leafDigests = (n: number, seed = 'leaf') => Array.from({ length: n }, (_, i) => h(Buffer.from(`${seed}-${i}`)));
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** The spec's tree written the obvious way, on node:crypto, as the reference the implementations must match. */
function referenceRoot(leaves: Buffer[]): Buffer {
  let level = leaves;
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(h(level[i]!, level[i + 1] ?? level[i]!));
    level = next;
  }
  return level[0]!;
}

describe('merkle tree', () => {
  it('is the spec tree on small cases written out by hand', () => {
    const [a, b, c, d, e] = leafDigests(5) as [Buffer, Buffer, Buffer, Buffer, Buffer];
    expect(hex(merkleRoot(packDigests([a])))).toBe(hex(a));
    expect(hex(merkleRoot(packDigests([a, b])))).toBe(hex(h(a, b)));
    expect(hex(merkleRoot(packDigests([a, b, c])))).toBe(hex(h(h(a, b), h(c, c))));
    expect(hex(merkleRoot(packDigests([a, b, c, d, e])))).toBe(hex(h(h(h(a, b), h(c, d)), h(h(e, e), h(e, e)))));
  });

  it('gives the same root level by level, through its levels, streamed, and by the reference, for 1..80 and 1,000 leaves', () => {
    for (const n of [...Array.from({ length: 80 }, (_, i) => i + 1), 1000]) {
      const leaves = leafDigests(n, `n${n}`);
      const expected = hex(referenceRoot(leaves));
      const levels = merkleLevels(packDigests(leaves));
      const acc = new MerkleRootAccumulator();
      leaves.forEach((l) => acc.add(l));
      expect([n, hex(merkleRoot(packDigests(leaves))), hex(levels[levels.length - 1]!), hex(acc.root()), acc.count]).toEqual([
        n,
        expected,
        expected,
        expected,
        n,
      ]);
    }
  });

  it('does not disturb its input or let a caller corrupt the accumulator through the root it returned', () => {
    const leaves = packDigests(leafDigests(7));
    const before = hex(leaves);
    merkleRoot(leaves);
    merkleLevels(leaves);
    expect(hex(leaves)).toBe(before);
    const acc = new MerkleRootAccumulator();
    acc.add(leafDigests(1)[0]!);
    acc.root().fill(0);
    expect(hex(acc.root())).toBe(hex(leafDigests(1)[0]!));
  });

  it('proves every leaf of every tree size up to 40, with the shape its index and count prescribe', () => {
    for (let n = 1; n <= 40; n++) {
      const leaves = leafDigests(n, `p${n}`);
      const levels = merkleLevels(packDigests(leaves));
      const root = levels[levels.length - 1]!;
      for (let i = 0; i < n; i++) {
        const proof = merkleProof(levels, i);
        expect(proof.map((s) => s.side)).toEqual(proofShape(i, n).map((s) => s.side));
        expect(proof).toHaveLength(Math.ceil(Math.log2(n)));
        expect([n, i, verifyMerkleProof(leaves[i]!, proof, root)]).toEqual([n, i, true]);
        if (proof.length > 0) {
          const flipped = proof.map((s, k) => (k === 0 ? { ...s, side: s.side === 'left' ? ('right' as const) : ('left' as const) } : s));
          // Flipping a self-paired step changes nothing (left ‖ left); any other flip must break the proof.
          expect(verifyMerkleProof(leaves[i]!, flipped, root)).toBe(proofShape(i, n)[0]!.selfPaired);
          const tampered = proof.map((s, k) => (k === proof.length - 1 ? { ...s, hash: h(Buffer.from(s.hash)) } : s));
          expect(verifyMerkleProof(leaves[i]!, tampered, root)).toBe(false);
        }
        expect(verifyMerkleProof(leaves[(i + 1) % n]!, proof, root)).toBe(n === 1);
      }
    }
  });

  it('describes proof shapes: sides from the leaf up, and where the odd node pairs with itself', () => {
    expect(proofShape(0, 1)).toEqual([]);
    expect(proofShape(2, 3)).toEqual([
      { side: 'right', selfPaired: true },
      { side: 'left', selfPaired: false },
    ]);
    expect(proofShape(4, 5)).toEqual([
      { side: 'right', selfPaired: true },
      { side: 'right', selfPaired: true },
      { side: 'left', selfPaired: false },
    ]);
    expect(proofShape(5, 6).map((s) => s.side)).toEqual(['left', 'right', 'left']);
    expect(() => proofShape(3, 3)).toThrow(RangeError);
    expect(() => proofShape(0, 0)).toThrow(RangeError);
  });

  it('has no tree for an empty hour; the documented empty root is SHA-256 of no bytes', () => {
    expect(() => merkleRoot(new Uint8Array(0))).toThrow(/empty hour/);
    expect(() => new MerkleRootAccumulator().root()).toThrow(/empty hour/);
    expect(hex(EMPTY_TREE_ROOT)).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(() => merkleRoot(new Uint8Array(33))).toThrow(RangeError);
    expect(() => packDigests([new Uint8Array(31)])).toThrow(RangeError);
  });

  it('shares its root between [a, b, c] and [a, b, c, c]: why commits record the leaf count', () => {
    const [a, b, c] = leafDigests(3) as [Buffer, Buffer, Buffer];
    expect(hex(merkleRoot(packDigests([a, b, c])))).toBe(hex(merkleRoot(packDigests([a, b, c, c]))));
  });
});
