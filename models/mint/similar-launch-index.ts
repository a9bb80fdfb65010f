import type { ModelCorpusRecord } from '../../db/mint/corpus-store';
import type { Neighbour } from '../../domain/scoring/grad-prob-model';
import { hasLaunchFeatures, launchFeaturesOf, MODEL_V2_NAME } from '../../domain/scoring/grad-prob-v2-model';
import { fitScalingSteps } from '../../domain/scoring/knn-index';
import { LAUNCH_FEATURE_KEYS, launchVector } from '../../domain/scoring/launch-features';
import type { LearnedMetric } from '../../domain/scoring/learned-knn-model';
import { FEATURE_VECTOR_KEYS, toVector, type MintFeatures } from '../../domain/scoring/mint-features';
import { similarLaunches, type FeatureScale, type SimilarLaunch } from '../../domain/scoring/similar-launches';
import { mapInPieces, type Steps } from '../../domain/scoring/stepwise';

/** The evidence of one fitted grad_prob model: its neighbours of a score as similar launches, on its own metric. */
export type SimilarLaunchIndex = {
  of(neighbours: readonly Neighbour[], features: MintFeatures, scoredAt: Date): SimilarLaunch[];
};

/**
 * Built beside each grad_prob fit from the same corpus rows: the neighbours a score returns carry only address,
 * label and distance, so the rows behind them are looked up here. The per-feature scale is the serving family's:
 * knn-v1's six published features z-scored over its corpus; knn-v2's launch features z-scored and multiplied by the
 * fit's learned weights (a feature of weight 0 is not in its distance, so it never "matches").
 */
export function* similarLaunchIndexSteps(
  rows: readonly ModelCorpusRecord[],
  ageS: number,
  champion: string,
  metric: LearnedMetric | undefined,
): Steps<SimilarLaunchIndex> {
  const v2 = champion === MODEL_V2_NAME;
  const used = v2 ? rows.filter((r) => hasLaunchFeatures(r)) : rows;
  const keys: readonly string[] = v2 ? LAUNCH_FEATURE_KEYS : FEATURE_VECTOR_KEYS;
  const vectorOf = (f: MintFeatures): number[] => (v2 ? launchVector(launchFeaturesOf(f)) : toVector(f));
  const vectors = yield* mapInPieces(used, (r) => vectorOf(r.features));
  const { std } = yield* fitScalingSteps(vectors, keys.length);
  const scale: FeatureScale = { keys, unit: keys.map((k, j) => (v2 ? (metric?.weights[k] ?? 1) : 1) / std[j]!) };
  const byMint = new Map(used.map((r, i) => [r.mint, { row: r, vector: vectors[i]! }]));
  return {
    of(neighbours, features, scoredAt) {
      const found = neighbours.flatMap((n) => {
        const e = byMint.get(n.mint);
        if (!e) return [];
        const r = e.row;
        return [
          {
            mint: n.mint,
            distance: n.distance,
            vector: e.vector,
            ageS,
            observedAt: r.observedAt,
            resolvedAt: r.resolvedAt,
            graduated: r.graduated,
            peakMult: r.peakMult,
            rugged: r.rugged,
          },
        ];
      });
      return similarLaunches(found, vectorOf(features), scale, scoredAt);
    },
  };
}
