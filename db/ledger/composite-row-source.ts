import { COMPOSITE_LEAF_V1 } from '../../domain/ledger/composite-leaf';
import type { LedgerLeaf } from '../../domain/ledger/leaf-fields';
import type { Knex } from '../../platform/db';
import { orderByTreeSql, rowFilterSql, type LedgerRowSource } from './ledger-row-source';

type CrossRow = {
  id: string | number;
  mint: string;
  crossed_at: Date;
  tier: string;
  composite_score: number;
  threshold_at_cross: number;
  smart_money_in: number;
  max_mult_at_cross: number;
  age_s: number;
  mc_at_cross_usd: number;
};

const COLUMNS = 'id, mint, crossed_at, tier, composite_score, threshold_at_cross, smart_money_in, max_mult_at_cross, age_s, mc_at_cross_usd';

const leaf = (r: CrossRow): LedgerLeaf =>
  COMPOSITE_LEAF_V1.build({
    id: Number(r.id),
    mint: r.mint,
    predictedAt: r.crossed_at,
    tier: r.tier,
    compositeScore: r.composite_score,
    thresholdAtCross: r.threshold_at_cross,
    smartMoneyIn: r.smart_money_in,
    maxMultAtCross: r.max_mult_at_cross,
    ageSAtCross: r.age_s,
    mcAtCrossUsd: r.mc_at_cross_usd,
  });

/**
 * composite: every first cross once its tier is published (the leaf pins the tier), placed by the cross's time.
 * A cross is tiered within about a minute and an hour is sealed LEDGER_GRACE_S (≥ 60 s, 600 s by default) after
 * it closes; a cross still untiered at the seal is refused its tier by the table's trigger (migration 0022) and
 * recorded as skipped, so the rows the seal counted are exactly the rows committed.
 */
export const COMPOSITE_ROW_SOURCE: LedgerRowSource = {
  track: 'composite',
  leafVersion: COMPOSITE_LEAF_V1.version,
  table: 'composite_predictions',
  idColumn: 'id',
  timeColumn: 'crossed_at',
  rowFilter: 'tier IS NOT NULL',
  async treeOrder(db: Knex, range) {
    const { rows } = await db.raw<{ rows: { id: string | number }[] }>(
      `SELECT id FROM composite_predictions WHERE crossed_at >= ? AND crossed_at < ?${rowFilterSql(this)} ORDER BY ${orderByTreeSql(this)}`,
      [range.from, range.to],
    );
    return rows.map((r) => Number(r.id));
  },
  async leavesOf(db: Knex, ids) {
    const { rows } = await db.raw<{ rows: CrossRow[] }>(`SELECT ${COLUMNS} FROM composite_predictions WHERE id = ANY(?::bigint[]) AND tier IS NOT NULL`, [
      `{${ids.join(',')}}`,
    ]);
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    return ids.map((id) => {
      const r = byId.get(id);
      if (!r) throw new Error(`composite prediction ${id} is no longer stored`);
      return leaf(r);
    });
  },
  async leafOf(db: Knex, id) {
    const { rows } = await db.raw<{ rows: CrossRow[] }>(`SELECT ${COLUMNS} FROM composite_predictions WHERE id = ? AND tier IS NOT NULL`, [id]);
    return rows[0] ? leaf(rows[0]) : null;
  },
  async timeOf(db: Knex, id) {
    const row = await db('composite_predictions').where({ id }).whereNotNull('tier').first('crossed_at');
    return row ? (row.crossed_at as Date) : null;
  },
};
