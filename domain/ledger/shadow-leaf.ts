import { asciiText, decimalText, fieldList, isoMillis, oneOf, safeInteger, sealLeaf, type LeafFormat } from './leaf-fields';

/**
 * The shadow track's leaf, version 1: one challenger model version's score of one mint at one age, logged forward and
 * never served. Committed hourly like the served scores, so the forward evidence a promotion is judged on cannot be
 * chosen, edited or dropped afterwards. Frozen like every leaf version.
 */
export type ShadowLeafInputV1 = {
  id: number;
  mint: string;
  ageBucket: number;
  modelName: string;
  modelVersion: string;
  asOf: Date;
  predictedAt: Date;
  gradProb: number;
};

export const SHADOW_LEAF_V1: LeafFormat<ShadowLeafInputV1> = Object.freeze({
  track: 'shadow',
  version: 1,
  fields: fieldList(
    'age_bucket', // 30 | 60
    'as_of', // the moment scored (creation + age), ISO-8601 UTC, milliseconds, Z
    'grad_prob', // decimal text in (0, 1)
    'id', // the shadow_predictions row id
    'leaf_version', // 1
    'mint',
    'model_name', // the configured model version name, e.g. "knn-v1-k25"
    'model_version', // that model's exact fit, e.g. "knn-v1-k25@60:20000:…"
    'predicted_at', // when it was logged
    'track', // "shadow"
  ),
  build(p) {
    const leaf = {
      age_bucket: oneOf(p.ageBucket, [30, 60], 'age_bucket'),
      as_of: isoMillis(p.asOf, 'as_of'),
      grad_prob: decimalText(p.gradProb, 'grad_prob', { min: 0, max: 1 }),
      id: safeInteger(p.id, 'id', { min: 1 }),
      leaf_version: 1,
      mint: asciiText(p.mint, 'mint'),
      model_name: asciiText(p.modelName, 'model_name'),
      model_version: asciiText(p.modelVersion, 'model_version'),
      predicted_at: isoMillis(p.predictedAt, 'predicted_at'),
      track: 'shadow',
    };
    return sealLeaf(SHADOW_LEAF_V1, leaf.id, p.predictedAt, leaf);
  },
});
