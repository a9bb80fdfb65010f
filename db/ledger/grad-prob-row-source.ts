import { GRAD_PROB_LEAF_V1, type GradProbLeafInputV1 } from '../../domain/ledger/grad-prob-leaf';
import { LeafFieldError, type LedgerLeaf } from '../../domain/ledger/leaf-fields';
import type { Knex } from '../../platform/db';
import { orderByTreeSql, type LedgerRowSource } from './ledger-row-source';

type PredictionRow = {
  id: number;
  mint: string;
  age_bucket: number;
  as_of: Date;
  predicted_at: Date;
  grad_prob: number;
  model_version: string;
  calibration: { confidence_band?: { lo?: unknown; hi?: unknown }; n?: unknown; historical_actual_rate?: unknown } | null;
  price_sol: number;
  features: Record<string, number | boolean | null>;
};

const COLUMNS = 'id, mint, age_bucket, as_of, predicted_at, grad_prob, model_version, calibration, price_sol, features';

/** A stored prediction row as grad_prob leaf v1 input; a calibration record of another shape is refused, not guessed. */
export function gradProbLeafInput(r: PredictionRow): GradProbLeafInputV1 {
  const c = r.calibration;
  const num = (v: unknown, what: string): number => {
    if (typeof v !== 'number') throw new LeafFieldError(`prediction ${r.id}: calibration ${what} is not a number`);
    return v;
  };
  const rate = c?.historical_actual_rate;
  return {
    id: r.id,
    mint: r.mint,
    ageBucket: r.age_bucket,
    asOf: r.as_of,
    predictedAt: r.predicted_at,
    gradProb: r.grad_prob,
    modelVersion: r.model_version,
    calibration: {
      bandLo: num(c?.confidence_band?.lo, 'confidence_band.lo'),
      bandHi: num(c?.confidence_band?.hi, 'confidence_band.hi'),
      n: num(c?.n, 'n'),
      historicalActualRate: rate === null || rate === undefined ? null : num(rate, 'historical_actual_rate'),
    },
    priceSol: r.price_sol,
    features: r.features,
  };
}

const leaf = (r: PredictionRow): LedgerLeaf => GRAD_PROB_LEAF_V1.build(gradProbLeafInput(r));

/** grad_prob: every logged prediction row (both ages), by `predicted_at`. */
export const GRAD_PROB_ROW_SOURCE: LedgerRowSource = {
  track: 'grad_prob',
  leafVersion: GRAD_PROB_LEAF_V1.version,
  table: 'predictions',
  idColumn: 'id',
  timeColumn: 'predicted_at',
  async treeOrder(db: Knex, range) {
    const { rows } = await db.raw<{ rows: { id: string | number }[] }>(
      `SELECT id FROM predictions WHERE predicted_at >= ? AND predicted_at < ? ORDER BY ${orderByTreeSql(this)}`,
      [range.from, range.to],
    );
    return rows.map((r) => Number(r.id));
  },
  async leavesOf(db: Knex, ids) {
    const { rows } = await db.raw<{ rows: PredictionRow[] }>(`SELECT ${COLUMNS} FROM predictions WHERE id = ANY(?::bigint[])`, [`{${ids.join(',')}}`]);
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    return ids.map((id) => {
      const r = byId.get(id);
      if (!r) throw new Error(`prediction ${id} is no longer stored`);
      return leaf(r);
    });
  },
  async leafOf(db: Knex, id) {
    const { rows } = await db.raw<{ rows: PredictionRow[] }>(`SELECT ${COLUMNS} FROM predictions WHERE id = ?`, [id]);
    return rows[0] ? leaf(rows[0]) : null;
  },
  async timeOf(db: Knex, id) {
    const row = await db('predictions').where({ id }).first('predicted_at');
    return row ? (row.predicted_at as Date) : null;
  },
};
