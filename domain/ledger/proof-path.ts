import { proofShape, walkProof, type ProofSide, type ProofStep } from './merkle-tree';

/** One step of a proof as a position in the stored levels: the sibling's level, its index there, and its side. */
export type SiblingPosition = { level: number; index: number; side: ProofSide };

/**
 * Where the siblings of leaf `index` among `count` leaves sit in the tree's levels (leaves are level 0), from the
 * leaf up to just below the root: what a proof server reads from stored levels, 32 bytes each, instead of
 * rebuilding the tree. A self-paired step's sibling is the node itself.
 */
export function siblingPositions(index: number, count: number): SiblingPosition[] {
  return proofShape(index, count).map((step, level) => {
    const at = index >>> level;
    return { level, index: step.side === 'left' ? at - 1 : step.selfPaired ? at : at + 1, side: step.side };
  });
}

/**
 * The proof steps of leaf `index` among `count` leaves from its stored leaf digest and, per level (leaves first), the
 * stored pair partner of the path's node (`(index >> level) ^ 1`; empty past a level's end; a stored root level is
 * ignored). Where a level's odd last node pairs with itself the sibling is the path's own node, hashed up from the
 * leaf here, so a proof server reads one slice per level, in one statement, before it knows the leaf count. A missing
 * slice where a sibling is due means the stored tree is not the commit's.
 */
export function stepsFromPath(index: number, count: number, leaf: Uint8Array, partners: readonly Uint8Array[]): ProofStep[] {
  const shape = proofShape(index, count);
  // The path's node is hashed up only as far as the last self-pair needs it (most leaves have none: no hashing).
  const lastSelfPair = shape.map((s) => s.selfPaired).lastIndexOf(true);
  const steps: ProofStep[] = [];
  let node = leaf;
  shape.forEach((step, level) => {
    const hash = step.selfPaired ? node : partners[level];
    if (!hash || hash.length !== 32) throw new Error(`stored tree has no node at level ${level} beside index ${index >>> level}`);
    steps.push({ hash, side: step.side });
    if (level < lastSelfPair) node = walkProof(node, [steps[level]!]);
  });
  return steps;
}
