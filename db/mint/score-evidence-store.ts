import type { SimilarLaunch, SimilarLaunches } from '../../domain/scoring/similar-launches';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/** A mint's latest logged score with the evidence logged beside it (null for scores logged before there was any). */
export type ScoreEvidence = {
  predictionId: number;
  ageBucket: number;
  predictedAt: Date;
  modelVersion: string;
  similarLaunches: SimilarLaunches | null;
};

type StoredLaunch = Omit<SimilarLaunch, 'observedAt' | 'resolvedAt'> & { observedAt: string; resolvedAt: string };

/** Reads the evidence the scoring activity logged with each prediction (predictions.similar_launches). */
export function createScoreEvidenceStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /** The latest score by logging time (the 60 s score once it exists); undefined when none was logged. */
    async latest(mint: string): Promise<ScoreEvidence | undefined> {
      const r = await db('predictions')
        .where({ mint })
        .orderBy([
          { column: 'predicted_at', order: 'desc' },
          { column: 'age_bucket', order: 'desc' },
        ])
        .first('id', 'age_bucket', 'predicted_at', 'model_version', 'similar_launches');
      if (!r) return undefined;
      const s = r.similar_launches as { cutAt: string; launches: StoredLaunch[] } | null;
      return {
        predictionId: Number(r.id),
        ageBucket: r.age_bucket,
        predictedAt: r.predicted_at,
        modelVersion: r.model_version,
        similarLaunches: s && {
          cutAt: new Date(s.cutAt),
          launches: s.launches.map((l) => ({ ...l, observedAt: new Date(l.observedAt), resolvedAt: new Date(l.resolvedAt) })),
        },
      };
    },
  };
}
export type ScoreEvidenceStore = ReturnType<typeof createScoreEvidenceStore>;
