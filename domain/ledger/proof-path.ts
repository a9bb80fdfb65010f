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
  const steps: ProofStep[] = [];
  let node = leaf;
  proofShape(index, count).forEach((shape, level) => {
    const hash = shape.selfPaired ? node : partners[level];
    if (!hash || hash.length !== 32) throw new Error(`stored tree has no node at level ${level} beside index ${index >>> level}`);
    const step = { hash, side: shape.side };
    steps.push(step);
    node = walkProof(node, [step]);
  });
  return steps;
}
