import type { LedgerLeaf } from '../../domain/ledger/leaf-fields';
import type { Knex } from '../../platform/db';
import { COMPOSITE_ROW_SOURCE } from './composite-row-source';
import { GRAD_PROB_ROW_SOURCE } from './grad-prob-row-source';
import type { LedgerRowSource } from './ledger-row-source';
import { VERDICT_ROW_SOURCE } from './verdict-row-source';

/**
 * The tracks being committed, each by its row source (ledger-row-source.ts says what a new track adds). A track
 * registered in domain/ledger/ledger-tracks.ts without a row source here has no commits yet; /api/scope says so.
 */
export const LEDGER_ROW_SOURCES: readonly LedgerRowSource[] = [
  GRAD_PROB_ROW_SOURCE,
  COMPOSITE_ROW_SOURCE,
  VERDICT_ROW_SOURCE,
  // PERPS_ROW_SOURCE, // issue 22: perps-row-source.ts over smart-money entries (its leaf format added to LEDGER_TRACKS)
];

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
for (const s of LEDGER_ROW_SOURCES) {
  // Table and column names are spliced into SQL: only plain identifiers.
  if (![s.table, s.idColumn, s.timeColumn].every((n) => IDENTIFIER.test(n))) throw new Error(`ledger row source ${s.track}: bad SQL identifier`);
}

export function rowSourceOf(track: string): LedgerRowSource | undefined {
  return LEDGER_ROW_SOURCES.find((s) => s.track === track);
}

/** One track's rows over one database, as the commit activities and the proof route read them. */
export type LedgerRows = {
  track: string;
  leafVersion: number;
  treeOrder(range: { from: Date; to: Date }): Promise<number[]>;
  leavesOf(ids: readonly number[]): Promise<LedgerLeaf[]>;
  leafOf(id: number): Promise<LedgerLeaf | null>;
  timeOf(id: number): Promise<Date | null>;
};

export function createLedgerRows(db: Knex, sources: readonly LedgerRowSource[] = LEDGER_ROW_SOURCES): LedgerRows[] {
  return sources.map((s) => ({
    track: s.track,
    leafVersion: s.leafVersion,
    treeOrder: (range) => s.treeOrder(db, range),
    leavesOf: (ids) => s.leavesOf(db, ids),
    leafOf: (id) => s.leafOf(db, id),
    timeOf: (id) => s.timeOf(db, id),
  }));
}
