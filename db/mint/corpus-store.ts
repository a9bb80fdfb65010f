import type { Knex } from 'knex';
import { CONFIDENCE_BANDS } from '../../domain/scoring/confidence-band';
import type { MintFeatures } from '../../domain/scoring/mint-features';

export type CorpusRecord = { mint: string; features: MintFeatures; graduated: boolean; resolvedAt: Date; observedAt: Date };
export type ForwardCell = { lo: number; hi: number; n: number; graduated: number };

/** Band boundaries for width_bucket: [0.05, 0.1, …, 0.9]; bucket i (1-based) is CONFIDENCE_BANDS[i-1]. */
const EDGES = CONFIDENCE_BANDS.slice(1).map((b) => b.lo);

export function createCorpusStore(db: Knex) {
  return {
    /**
     * Resolved mints observed at `ageBucket`, newest first: the features are the immutable snapshot logged when
     * the mint was scored at that age, so the corpus holds exactly what the model could see then.
     */
    async corpus(ageBucket: number, labelVersion: string, limit: number): Promise<CorpusRecord[]> {
      const rows = await db('predictions as p')
        .join('mint_outcomes as o', 'o.mint', 'p.mint')
        .where('p.age_bucket', ageBucket)
        .where('o.label_version', labelVersion)
        // Newest by observation time, not resolution time: graduates resolve sooner than duds, so a cut by
        // resolution time would over-represent graduates. Every row here is final (resolved at the horizon).
        .orderBy('p.as_of', 'desc')
        .limit(limit)
        .select('p.mint', 'p.features', 'p.as_of', 'o.graduated', 'o.resolved_at');
      return rows.map((r) => ({ mint: r.mint, features: r.features, graduated: r.graduated, resolvedAt: r.resolved_at, observedAt: r.as_of }));
    },

    /** Forward accuracy per confidence cell: resolved live predictions at this age, by the band they were in. */
    async forwardCells(ageBucket: number): Promise<ForwardCell[]> {
      const rows = await db('predictions as p')
        .join('prediction_outcomes as o', 'o.prediction_id', 'p.id')
        .where('p.age_bucket', ageBucket)
        .groupByRaw('1')
        .select(db.raw('width_bucket(p.grad_prob, ?::float8[]) as bucket', [`{${EDGES.join(',')}}`]), db.raw('count(*)::int as n'), db.raw('count(*) FILTER (WHERE o.graduated)::int as g'));
      return CONFIDENCE_BANDS.map((b, i) => {
        const r = rows.find((x) => Number(x.bucket) === i);
        return { lo: b.lo, hi: b.hi, n: r?.n ?? 0, graduated: r?.g ?? 0 };
      });
    },
  };
}
export type CorpusStore = ReturnType<typeof createCorpusStore>;
