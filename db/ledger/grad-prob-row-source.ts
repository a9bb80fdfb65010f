import { GRAD_PROB_LEAF_V1, type GradProbLeafInputV1 } from '../../domain/ledger/grad-prob-leaf';
import { LeafFieldError } from '../../domain/ledger/leaf-fields';
import { predictionFields, type PredictionRowCore } from './prediction-row';
import { defineLedgerRowSource } from './ledger-row-source';

type PredictionRow = PredictionRowCore & {
  calibration: { confidence_band?: { lo?: unknown; hi?: unknown }; n?: unknown; historical_actual_rate?: unknown } | null;
  features: Record<string, number | boolean | null>;
};

/** A stored prediction row as grad_prob leaf v1 input; a calibration record of another shape is refused, not guessed. */
export function gradProbLeafInput(r: PredictionRow): GradProbLeafInputV1 {
  const c = r.calibration;
  const num = (v: unknown, what: string): number => {
    if (typeof v !== 'number') throw new LeafFieldError(`prediction ${r.id}: calibration ${what} is not a number`);
    return v;
  };
  const rate = c?.historical_actual_rate;
  return {
    ...predictionFields(r),
    calibration: {
      bandLo: num(c?.confidence_band?.lo, 'confidence_band.lo'),
      bandHi: num(c?.confidence_band?.hi, 'confidence_band.hi'),
      n: num(c?.n, 'n'),
      historicalActualRate: rate === null || rate === undefined ? null : num(rate, 'historical_actual_rate'),
    },
    features: r.features,
  };
}

/** grad_prob: every logged prediction row (both ages), by `predicted_at`. */
export const GRAD_PROB_ROW_SOURCE = defineLedgerRowSource<PredictionRow>({
  track: 'grad_prob',
  leafVersion: GRAD_PROB_LEAF_V1.version,
  table: 'predictions',
  timeColumn: 'predicted_at',
  columns: ['id', 'mint', 'age_bucket', 'as_of', 'predicted_at', 'grad_prob', 'model_version', 'calibration', 'price_sol', 'features'],
  rowName: 'prediction',
  leaf: (r) => GRAD_PROB_LEAF_V1.build(gradProbLeafInput(r)),
});
