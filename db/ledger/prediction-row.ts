import type { GradProbLeafInputV1 } from '../../domain/ledger/grad-prob-leaf';

/** The columns of a stored prediction that its readers share, as node-postgres returns them. */
export type PredictionRowCore = {
  id: number;
  mint: string;
  age_bucket: number;
  as_of: Date;
  predicted_at: Date;
  grad_prob: number;
  model_version: string;
  price_sol: number;
};

/**
 * A stored prediction's shared columns as the domain names them: the grad_prob ledger leaf's own input (its frozen
 * version 1) without the two fields only the ledger reads whole.
 */
export type PredictionFields = Omit<GradProbLeafInputV1, 'calibration' | 'features'>;

/** One mapping for every reader of the table. */
export function predictionFields(r: PredictionRowCore): PredictionFields {
  return {
    id: r.id,
    mint: r.mint,
    ageBucket: r.age_bucket,
    asOf: r.as_of,
    predictedAt: r.predicted_at,
    gradProb: r.grad_prob,
    modelVersion: r.model_version,
    priceSol: r.price_sol,
  };
}
