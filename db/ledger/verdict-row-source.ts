import type { LedgerLeaf } from '../../domain/ledger/leaf-fields';
import { VERDICT_LEAF_V1 } from '../../domain/ledger/verdict-leaf';
import type { Knex } from '../../platform/db';
import { orderByTreeSql, type LedgerRowSource } from './ledger-row-source';

type VerdictRow = {
  id: string | number;
  locked_at: Date;
  preregistration_id: string;
  preregistration_sha256: string;
  branch: string;
  verdict: string;
  window_start: Date;
  window_end: Date;
  evaluation_sha256: string;
};

const COLUMNS = 'id, locked_at, preregistration_id, preregistration_sha256, branch, verdict, window_start, window_end, evaluation_sha256';

const leaf = (r: VerdictRow): LedgerLeaf =>
  VERDICT_LEAF_V1.build({
    id: Number(r.id),
    lockedAt: r.locked_at,
    preregistrationId: r.preregistration_id,
    preregistrationSha256: r.preregistration_sha256,
    branch: r.branch,
    verdict: r.verdict,
    windowStart: r.window_start,
    windowEnd: r.window_end,
    evaluationSha256: r.evaluation_sha256,
  });

/** verdict: every locked pre-registered verdict (one row per registration, immutable), by `locked_at`. */
export const VERDICT_ROW_SOURCE: LedgerRowSource = {
  track: 'verdict',
  leafVersion: VERDICT_LEAF_V1.version,
  table: 'verdicts',
  idColumn: 'id',
  timeColumn: 'locked_at',
  async treeOrder(db: Knex, range) {
    const { rows } = await db.raw<{ rows: { id: string | number }[] }>(
      `SELECT id FROM verdicts WHERE locked_at >= ? AND locked_at < ? ORDER BY ${orderByTreeSql(this)}`,
      [range.from, range.to],
    );
    return rows.map((r) => Number(r.id));
  },
  async leavesOf(db: Knex, ids) {
    const { rows } = await db.raw<{ rows: VerdictRow[] }>(`SELECT ${COLUMNS} FROM verdicts WHERE id = ANY(?::bigint[])`, [`{${ids.join(',')}}`]);
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    return ids.map((id) => {
      const r = byId.get(id);
      if (!r) throw new Error(`verdict ${id} is no longer stored`);
      return leaf(r);
    });
  },
  async leafOf(db: Knex, id) {
    const { rows } = await db.raw<{ rows: VerdictRow[] }>(`SELECT ${COLUMNS} FROM verdicts WHERE id = ?`, [id]);
    return rows[0] ? leaf(rows[0]) : null;
  },
  async timeOf(db: Knex, id) {
    const row = await db('verdicts').where({ id }).first('locked_at');
    return row ? (row.locked_at as Date) : null;
  },
};
