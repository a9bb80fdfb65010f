import { SHADOW_LEAF_V1 } from '../../domain/ledger/shadow-leaf';
import { defineLedgerRowSource } from './ledger-row-source';

type ShadowRow = {
  id: string | number;
  mint: string;
  age_bucket: number;
  model_name: string;
  model_version: string;
  as_of: Date;
  predicted_at: Date;
  grad_prob: number;
};

/** shadow: every challenger score logged forward (never served), by `predicted_at`. */
export const SHADOW_ROW_SOURCE = defineLedgerRowSource<ShadowRow>({
  track: 'shadow',
  leafVersion: SHADOW_LEAF_V1.version,
  table: 'shadow_predictions',
  timeColumn: 'predicted_at',
  columns: ['id', 'mint', 'age_bucket', 'model_name', 'model_version', 'as_of', 'predicted_at', 'grad_prob'],
  rowName: 'shadow prediction',
  leaf: (r) =>
    SHADOW_LEAF_V1.build({
      id: Number(r.id),
      mint: r.mint,
      ageBucket: r.age_bucket,
      modelName: r.model_name,
      modelVersion: r.model_version,
      asOf: r.as_of,
      predictedAt: r.predicted_at,
      gradProb: r.grad_prob,
    }),
});
