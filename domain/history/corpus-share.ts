/** What the labelled corpus holds, by origin: this deployment's own resolutions and each source of history. */
export type CorpusComposition = {
  resolvedMints: number;
  history: readonly { source: string; mints: number; oldestCreatedAt: Date | null; newestCreatedAt: Date | null }[];
};

export type CorpusShare = {
  /** Labelled mints: own resolutions plus every history row's mint. */
  labelledMints: number;
  /** Share of them read from the chain by a backfill (0 when the corpus is empty). */
  backfilledShare: number;
  backfillOldestCreatedAt: Date | null;
  backfillNewestCreatedAt: Date | null;
};

/** How much of the corpus is backfilled history and from when (GET /api/scope, /api/predictor/health). */
export function corpusShare(c: CorpusComposition): CorpusShare {
  const labelledMints = c.resolvedMints + c.history.reduce((n, h) => n + h.mints, 0);
  const backfill = c.history.find((h) => h.source === 'backfill');
  return {
    labelledMints,
    backfilledShare: labelledMints > 0 && backfill ? Math.round((backfill.mints / labelledMints) * 10_000) / 10_000 : 0,
    backfillOldestCreatedAt: backfill?.oldestCreatedAt ?? null,
    backfillNewestCreatedAt: backfill?.newestCreatedAt ?? null,
  };
}
