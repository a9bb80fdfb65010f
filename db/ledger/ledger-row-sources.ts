import type { LedgerLeaf } from '../../domain/ledger/leaf-fields';
import { COMPOSITE_ROW_SOURCE } from './composite-row-source';
import { GRAD_PROB_ROW_SOURCE } from './grad-prob-row-source';
import type { LedgerRowSource } from './ledger-row-source';
import { PERPS_ROW_SOURCE } from './perps-row-source';
import { PROMOTION_ROW_SOURCE } from './promotion-row-source';
import { SHADOW_ROW_SOURCE } from './shadow-row-source';
import { VERDICT_ROW_SOURCE } from './verdict-row-source';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/**
 * The tracks being committed, each by its row source (ledger-row-source.ts says what a new track adds). A track
 * registered in domain/ledger/ledger-tracks.ts without a row source here has no commits yet; /api/scope says so.
 */
export const LEDGER_ROW_SOURCES: readonly LedgerRowSource[] = [
  GRAD_PROB_ROW_SOURCE,
  COMPOSITE_ROW_SOURCE,
  VERDICT_ROW_SOURCE,
  PERPS_ROW_SOURCE,
  SHADOW_ROW_SOURCE,
  PROMOTION_ROW_SOURCE,
];

/** One track's rows over one database, as the commit activities and the proof route read them. */
export type LedgerRows = {
  track: string;
  leafVersion: number;
  treeOrder(range: { from: Date; to: Date }): Promise<number[]>;
  leavesOf(ids: readonly number[]): Promise<LedgerLeaf[]>;
  leafOf(id: number): Promise<LedgerLeaf | null>;
  timeOf(id: number): Promise<Date | null>;
};

export function createLedgerRows(handle: Db, sources: readonly LedgerRowSource[] = LEDGER_ROW_SOURCES): LedgerRows[] {
  const db = knexOf(handle);
  return sources.map((s) => ({
    track: s.track,
    leafVersion: s.leafVersion,
    treeOrder: (range) => s.treeOrder(db, range),
    leavesOf: (ids) => s.leavesOf(db, ids),
    leafOf: (id) => s.leafOf(db, id),
    timeOf: (id) => s.timeOf(db, id),
  }));
}
