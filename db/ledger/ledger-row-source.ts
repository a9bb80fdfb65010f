import type { LedgerLeaf } from '../../domain/ledger/leaf-fields';
import type { Knex } from '../../platform/db';

/**
 * How the ledger reads one track's rows: the only part of a track that knows its table. The commit machinery
 * (sealing, committing, proofs, the API) is generic over it; a new track is its leaf format in
 * domain/ledger/ledger-tracks.ts, one of these, its line in ledger-row-sources.ts, and the seal trigger on its
 * table (a migration: `CREATE TRIGGER … EXECUTE FUNCTION ledger_refuse_sealed_row('<track>', '<time column>')`).
 */
export type LedgerRowSource = {
  track: string;
  /** The leaf version new commits are built with. */
  leafVersion: number;
  /** The table and its columns, as SQL identifiers: the row id and the time that picks the hour and orders the tree. */
  table: string;
  idColumn: string;
  timeColumn: string;
  /**
   * A constant SQL predicate on the table, when only some of its rows are leaves (the composite track: tiered
   * crosses). The seal counts and the tree reads only rows that match it; the table's own triggers must keep a row
   * from starting to match once its hour is sealed.
   */
  rowFilter?: string;
  /**
   * The ids of the rows with time in [from, to), in tree order (millisecond time, then id): one sort of the hour,
   * after which the commit reads the rows in pages by id (`leavesOf`). A keyset over the millisecond-cut time
   * could use no index and would sort the hour again for every page.
   */
  treeOrder(db: Knex, range: { from: Date; to: Date }): Promise<number[]>;
  /** The leaves of these rows, in the order given; a row that is missing is an error. */
  leavesOf(db: Knex, ids: readonly number[]): Promise<LedgerLeaf[]>;
  /** The leaf of the row as it is stored now (what a proof serves), or null when there is no such row. */
  leafOf(db: Knex, id: number): Promise<LedgerLeaf | null>;
  /** The time of a row (for "not committed yet, expected by"), or null when there is no such row. */
  timeOf(db: Knex, id: number): Promise<Date | null>;
};

/**
 * Tree order in SQL, shared by every track. Times are cut to the millisecond, as leaves record them, so the
 * database's order is the tree's even for a row written with microseconds.
 */
/** `AND (<rowFilter>)`, or nothing: appended to every range query over the source's table. */
export const rowFilterSql = (s: LedgerRowSource) => (s.rowFilter ? ` AND (${s.rowFilter})` : '');

export const orderByTreeSql = (s: LedgerRowSource) => `date_trunc('milliseconds', "${s.timeColumn}"), "${s.idColumn}"`;
