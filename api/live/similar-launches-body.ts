import type { ScoreEvidence } from '../../db/mint/score-evidence-store';
import { modelFamily } from '../../domain/scoring/knn-label-model';
import { SIMILAR_LAUNCHES } from '../../domain/scoring/similar-launches';
import { iso } from '../http/iso';

/** The probe's `similar_launches` (openapi.yaml SimilarLaunches): null without a logged score or its evidence. */
export function similarLaunchesBody(e: ScoreEvidence | undefined) {
  if (!e?.similarLaunches) return null;
  return {
    prediction_id: e.predictionId,
    // The family with its corpus tags (`knn-v1+synthetic`): what a reader compares; the version pins the exact fit.
    model_name: modelFamily(e.modelVersion),
    model_version: e.modelVersion,
    age_bucket: e.ageBucket,
    scored_at: iso(e.predictedAt),
    resolved_before: iso(e.similarLaunches.cutAt),
    max_launches: SIMILAR_LAUNCHES,
    launches: e.similarLaunches.launches.map((l) => ({
      mint: l.mint,
      distance: l.distance,
      age_s: l.ageS,
      observed_at: iso(l.observedAt),
      resolved_at: iso(l.resolvedAt),
      matched_features: l.matched.map((m) => ({ feature: m.feature, difference: m.difference })),
      graduated: l.graduated,
      peak_mult: l.peakMult,
      rugged: l.rugged,
    })),
  };
}
