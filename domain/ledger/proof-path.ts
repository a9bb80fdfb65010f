import { proofShape, type ProofSide } from './merkle-tree';

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
