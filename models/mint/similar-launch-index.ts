import type { ModelCorpusRecord } from '../../db/mint/corpus-store';
import type { Neighbour } from '../../domain/scoring/grad-prob-model';
import { hasLaunchFeatures, launchFeaturesOf, MODEL_V2_NAME } from '../../domain/scoring/grad-prob-v2-model';
import { fitScalingOfSteps, type Scaling } from '../../domain/scoring/knn-index';
import { LAUNCH_FEATURE_KEYS, launchVector } from '../../domain/scoring/launch-features';
import type { LearnedMetric } from '../../domain/scoring/learned-knn-model';
import { FEATURE_VECTOR_KEYS, toVector, type MintFeatures } from '../../domain/scoring/mint-features';
import { similarLaunches, type FeatureScale, type SimilarLaunch } from '../../domain/scoring/similar-launches';
import { pauseEvery, type Steps } from '../../domain/scoring/stepwise';

/** The evidence of one fitted grad_prob model: its neighbours of a score as similar launches, on its own metric. */
export type SimilarLaunchIndex = {
  of(neighbours: readonly Neighbour[], features: MintFeatures, scoredAt: Date): SimilarLaunch[];
};

/**
 * Built beside each grad_prob fit from the same corpus rows: the neighbours a score returns carry only address,
 * label and distance, so the rows behind them are looked up here. The per-feature scale is the serving family's:
 * knn-v1's six published features z-scored over its corpus; knn-v2's launch features z-scored and multiplied by the
 * fit's learned weights (a feature of weight 0 is not in its distance, so it never "matches").
 *
 * knn-v2's scale is the fit's own (`fitted`: the std over its index rows, the one its distance divides by), so no
 * pass over the corpus is made for it. knn-v1's is a pass over the corpus, in pieces and keeping nothing per row. A
 * neighbour's vector is built when a score shows it (its k neighbours), where keeping one per corpus row held a
 * million arrays at 1M rows for as long as the model served.
 */
export function* similarLaunchIndexSteps(
  rows: readonly ModelCorpusRecord[],
  ageS: number,
  champion: string,
  metric: LearnedMetric | undefined,
  fitted?: Scaling,
): Steps<SimilarLaunchIndex> {
  const v2 = champion === MODEL_V2_NAME;
  const keys: readonly string[] = v2 ? LAUNCH_FEATURE_KEYS : FEATURE_VECTOR_KEYS;
  const vectorOf = (f: MintFeatures): number[] => (v2 ? launchVector(launchFeaturesOf(f)) : toVector(f));
  const used: ModelCorpusRecord[] = [];
  const byMint = new Map<string, ModelCorpusRecord>();
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (!v2 || hasLaunchFeatures(r)) {
      used.push(r);
      byMint.set(r.mint, r);
    }
    if (pauseEvery(i, ROW_PIECE)) yield;
  }
  if (fitted && fitted.std.length !== keys.length) throw new RangeError(`the fit's scaling has ${fitted.std.length} features, ${champion} ${keys.length}`);
  const { std } = v2 && fitted ? fitted : yield* fitScalingOfSteps(used.length, (i) => vectorOf(used[i]!.features), keys.length);
  const scale: FeatureScale = { keys, unit: keys.map((k, j) => (v2 ? (metric?.weights[k] ?? 1) : 1) / std[j]!) };
  return {
    of(neighbours, features, scoredAt) {
      const found = neighbours.flatMap((n) => {
        const r = byMint.get(n.mint);
        if (!r) return [];
        return [
          {
            mint: n.mint,
            distance: n.distance,
            vector: vectorOf(r.features),
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

const ROW_PIECE = 1 << 14;
