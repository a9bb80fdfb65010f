import type { LedgerLeaf } from '../../domain/ledger/leaf-fields';
import type { Knex } from 'knex';
import { preparedQuery } from '../../platform/db';

/**
 * How the ledger reads one track's rows: the only part of a track that knows its table. The commit machinery
 * (sealing, committing, proofs, the API) is generic over it; a new track is its leaf format in
 * domain/ledger/ledger-tracks.ts, one `defineLedgerRowSource` (its table, columns and leaf), its line in
 * ledger-row-sources.ts, and the seal trigger on its table (a migration: `CREATE TRIGGER … EXECUTE FUNCTION
 * ledger_refuse_sealed_row('<track>', '<time column>')`).
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

/** `AND (<rowFilter>)`, or nothing: appended to every query over the source's table. */
export const rowFilterSql = (s: Pick<LedgerRowSource, 'rowFilter'>) => (s.rowFilter ? ` AND (${s.rowFilter})` : '');

/**
 * Tree order in SQL, shared by every track. Times are cut to the millisecond, as leaves record them, so the
 * database's order is the tree's even for a row written with microseconds.
 */
export const orderByTreeSql = (s: Pick<LedgerRowSource, 'timeColumn' | 'idColumn'>) => `date_trunc('milliseconds', "${s.timeColumn}"), "${s.idColumn}"`;

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** What a track states about its table; `defineLedgerRowSource` derives every query from it. */
export type LedgerRowSourceSpec<Row> = {
  track: string;
  leafVersion: number;
  table: string;
  /** `id` unless named. */
  idColumn?: string;
  timeColumn: string;
  rowFilter?: string;
  /** The columns a leaf is built from (plain identifiers). */
  columns: readonly string[];
  /** What a row is called in errors ("composite prediction 12 is no longer stored"). */
  rowName: string;
  leaf(row: Row): LedgerLeaf;
};

/**
 * A track's row source from its table, columns and leaf builder: every track runs the same four queries (tree order
 * over the hour, leaves by id in pages, one leaf, one time), each restricted to the row filter, so a row the filter
 * leaves out is neither committed, proved nor reported pending. The one-row reads are on every proof's path, so
 * they are prepared statements (named per track).
 */
export function defineLedgerRowSource<Row>(spec: LedgerRowSourceSpec<Row>): LedgerRowSource {
  const idColumn = spec.idColumn ?? 'id';
  // Table and column names are spliced into SQL: only plain identifiers.
  if (![spec.table, idColumn, spec.timeColumn, ...spec.columns].every((n) => IDENTIFIER.test(n))) {
    throw new Error(`ledger row source ${spec.track}: bad SQL identifier`);
  }
  const source = { track: spec.track, leafVersion: spec.leafVersion, table: spec.table, idColumn, timeColumn: spec.timeColumn, rowFilter: spec.rowFilter };
  const where = rowFilterSql(source);
  const cols = spec.columns.map((c) => `"${c}"`).join(', ');
  const from = `FROM "${spec.table}"`;
  const id = `"${idColumn}"`;
  const time = `"${spec.timeColumn}"`;
  return {
    ...source,
    async treeOrder(db, range) {
      const { rows } = await db.raw<{ rows: { id: string | number }[] }>(
        `SELECT ${id} AS id ${from} WHERE ${time} >= ? AND ${time} < ?${where} ORDER BY ${orderByTreeSql(source)}`,
        [range.from, range.to],
      );
      return rows.map((r) => Number(r.id));
    },
    async leavesOf(db, ids) {
      // As an array literal: knex would spread a JS array into one placeholder per element.
      const { rows } = await db.raw<{ rows: (Row & { __id: string | number })[] }>(
        `SELECT ${id} AS __id, ${cols} ${from} WHERE ${id} = ANY(?::bigint[])${where}`,
        [`{${ids.join(',')}}`],
      );
      const byId = new Map(rows.map((r) => [Number(r.__id), r]));
      return ids.map((i) => {
        const r = byId.get(i);
        if (!r) throw new Error(`${spec.rowName} ${i} is no longer stored`);
        return spec.leaf(r);
      });
    },
    async leafOf(db, rowId) {
      const rows = await preparedQuery<Row>(db, {
        name: `ledger_leaf_of_${spec.track}`,
        text: `SELECT ${cols} ${from} WHERE ${id} = $1${where}`,
        values: [rowId],
      });
      return rows[0] ? spec.leaf(rows[0]) : null;
    },
    async timeOf(db, rowId) {
      const rows = await preparedQuery<{ t: Date }>(db, {
        name: `ledger_time_of_${spec.track}`,
        text: `SELECT ${time} AS t ${from} WHERE ${id} = $1${where}`,
        values: [rowId],
      });
      return rows[0] ? rows[0].t : null;
    },
  };
}
