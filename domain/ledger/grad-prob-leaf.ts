import { canonicalJson } from '../digest/canonical-json';
import { digestToHex, sha256Utf8 } from '../digest/ledger-digest';
import { asciiText, decimalText, decimalTextOrNull, fieldList, isoMillis, oneOf, safeInteger, sealLeaf, type LeafFormat } from './leaf-fields';

/**
 * The grad_prob track's leaf, version 1: one logged prediction row (a mint at age 30 s or 60 s). Frozen:
 * a field added, removed or re-encoded is version 2, and version 1 keeps building the same bytes forever.
 *
 * Beyond the spec's (mint, age bucket, probability, time, model version) it commits to what the service
 * publishes with the prediction and measures it by later: `as_of` (the chain moment the features were taken
 * at, so a prediction computed late with hindsight shows), the calibration cell served alongside
 * (`grad_prob_calibration`), the price the runner multiples are measured from, and a SHA-256 of the feature
 * snapshot the model saw (the training corpus reuses stored features; their hash makes a rewrite detectable
 * by anyone holding them, with any RFC 8785 implementation).
 */
export type GradProbLeafInputV1 = {
  id: number;
  mint: string;
  ageBucket: number;
  asOf: Date;
  predictedAt: Date;
  /** The calibrated probability the service published. */
  gradProb: number;
  modelVersion: string;
  calibration: { bandLo: number; bandHi: number; n: number; historicalActualRate: number | null };
  priceSol: number;
  /** The stored feature snapshot (the `features` column). */
  features: Readonly<Record<string, number | boolean | null>>;
};

export const GRAD_PROB_AGE_BUCKETS: readonly number[] = [30, 60];

export const GRAD_PROB_LEAF_V1: LeafFormat<GradProbLeafInputV1> = Object.freeze({
  track: 'grad_prob',
  version: 1,
  fields: fieldList(
    'age_bucket', // 30 | 60 (integer)
    'as_of', // ISO-8601 UTC, milliseconds, Z
    'calibration_band_hi', // decimal text
    'calibration_band_lo', // decimal text
    'calibration_n', // integer ≥ 0
    'calibration_rate', // decimal text in [0, 1], or null while the cell is empty
    'features_sha256', // 64 lowercase hex: SHA-256 of the features object's RFC 8785 bytes
    'grad_prob', // decimal text in [0, 1]
    'id', // the prediction id (integer ≥ 1)
    'leaf_version', // 1
    'mint',
    'model_version',
    'predicted_at', // ISO-8601 UTC, milliseconds, Z; orders the tree and picks the hour
    'price_sol', // decimal text > 0
    'track', // "grad_prob"
  ),
  build(p) {
    const leaf = {
      age_bucket: oneOf(p.ageBucket, GRAD_PROB_AGE_BUCKETS, 'age_bucket'),
      as_of: isoMillis(p.asOf, 'as_of'),
      calibration_band_hi: decimalText(p.calibration.bandHi, 'calibration_band_hi', { min: 0, max: 1 }),
      calibration_band_lo: decimalText(p.calibration.bandLo, 'calibration_band_lo', { min: 0, max: 1 }),
      calibration_n: safeInteger(p.calibration.n, 'calibration_n', { min: 0 }),
      calibration_rate: decimalTextOrNull(p.calibration.historicalActualRate, 'calibration_rate', { min: 0, max: 1 }),
      features_sha256: digestToHex(sha256Utf8(canonicalJson(p.features))),
      grad_prob: decimalText(p.gradProb, 'grad_prob', { min: 0, max: 1 }),
      id: safeInteger(p.id, 'id', { min: 1 }),
      leaf_version: 1,
      mint: asciiText(p.mint, 'mint'),
      model_version: asciiText(p.modelVersion, 'model_version', 256),
      predicted_at: isoMillis(p.predictedAt, 'predicted_at'),
      price_sol: decimalText(p.priceSol, 'price_sol', { min: Number.MIN_VALUE }),
      track: 'grad_prob',
    };
    return sealLeaf(GRAD_PROB_LEAF_V1, leaf.id, p.predictedAt, leaf);
  },
});
