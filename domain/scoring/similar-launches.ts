/**
 * The evidence behind a k-NN score: the nearest resolved launches it stood on and what each did next. A score is
 * only as honest as what was knowable when it was made, so a launch whose outcome resolved at or after the score's
 * moment is never shown, even when the index held it (seeded history can carry labels dated after "now").
 */

/** How many of a score's neighbours are kept as its evidence: enough to read, few enough to store with every score. */
export const SIMILAR_LAUNCHES = 10;
/** How many per-feature matches each neighbour names: its closest features on the model's scale. */
export const MATCHED_FEATURES = 3;

/** A model's distance as per-feature parts: the feature names in vector order and each one's scale. */
export type FeatureScale = {
  keys: readonly string[];
  /** Per feature, what one unit of raw difference counts in the model's distance (weight ÷ std); 0 = unused. */
  unit: readonly number[];
};

/** One neighbour the model found, with the corpus row behind it. */
export type NeighbourRow = {
  mint: string;
  /** The model's own distance to the query. */
  distance: number;
  /** The row's feature vector, in `FeatureScale.keys` order, raw (unscaled). */
  vector: readonly number[];
  ageS: number;
  observedAt: Date;
  resolvedAt: Date;
  graduated: boolean;
  /** Peak price after `observedAt` ÷ the price then; null when unknown. */
  peakMult: number | null;
  /** Null when the row's rug label is of another definition. */
  rugged: boolean | null;
};

export type FeatureMatch = { feature: string; difference: number };

export type SimilarLaunch = {
  mint: string;
  distance: number;
  ageS: number;
  observedAt: Date;
  resolvedAt: Date;
  /** The closest features first, by the absolute difference on the model's scale. */
  matched: FeatureMatch[];
  graduated: boolean;
  peakMult: number | null;
  rugged: boolean | null;
};

/** A score's evidence as logged with it: the launches, and the moment they were cut at (the score's). */
export type SimilarLaunches = { cutAt: Date; launches: SimilarLaunch[] };

/**
 * The nearest `limit` of `neighbours` resolved strictly before `scoredAt`, nearest first (ties by address so the
 * answer is deterministic), each with the features it matched best on the model's scale.
 */
export function similarLaunches(
  neighbours: readonly NeighbourRow[],
  query: readonly number[],
  scale: FeatureScale,
  scoredAt: Date,
  limit = SIMILAR_LAUNCHES,
): SimilarLaunch[] {
  if (query.length !== scale.keys.length || scale.unit.length !== scale.keys.length) {
    throw new RangeError(`query has ${query.length} features, scale ${scale.keys.length} keys and ${scale.unit.length} units`);
  }
  const cut = scoredAt.getTime();
  return neighbours
    .filter((n) => n.resolvedAt.getTime() < cut)
    .sort((a, b) => a.distance - b.distance || (a.mint < b.mint ? -1 : a.mint > b.mint ? 1 : 0))
    .slice(0, Math.max(0, limit))
    .map((n) => ({
      mint: n.mint,
      distance: n.distance,
      ageS: n.ageS,
      observedAt: n.observedAt,
      resolvedAt: n.resolvedAt,
      matched: closestFeatures(n.vector, query, scale),
      graduated: n.graduated,
      peakMult: n.peakMult,
      rugged: n.rugged,
    }));
}

/** The MATCHED_FEATURES features (among those the model uses) where the row is closest to the query. */
function closestFeatures(row: readonly number[], query: readonly number[], scale: FeatureScale): FeatureMatch[] {
  if (row.length !== query.length) throw new RangeError(`row has ${row.length} features, query ${query.length}`);
  return scale.keys
    .flatMap((feature, j) => (scale.unit[j]! > 0 ? [{ feature, difference: Math.abs(row[j]! - query[j]!) * scale.unit[j]! }] : []))
    .sort((a, b) => a.difference - b.difference || scale.keys.indexOf(a.feature) - scale.keys.indexOf(b.feature))
    .slice(0, MATCHED_FEATURES);
}
