import { z } from 'zod';
import { csv, defineSettings } from './settings';

/** The mint pipeline: the live list's window, size, refresh and staleness; the models' refit period and corpus. */
export const mintSettings = defineSettings(
  {
    LIVE_WINDOW_S: z.coerce.number().int().min(60).max(86_400).default(300),
    LIVE_MAX_ENTRIES: z.coerce.number().int().min(10).max(5000).default(500),
    LIVE_REFRESH_MS: z.coerce.number().int().min(250).max(60_000).default(2000),
    /** A live snapshot older than this (beyond its promised delay) is served marked stale and turns /api/health degraded. */
    LIVE_STALE_AFTER_S: z.coerce.number().int().min(5).max(3600).default(20),
    MODEL_REFIT_EVERY_S: z.coerce.number().int().min(10).max(86_400).default(600),
    CORPUS_LIMIT: z.coerce.number().int().min(100).max(5_000_000).default(200_000),
    /**
     * Below this many grad_prob corpus rows (at the age scored) a scoring moment logs no prediction: it is recorded as
     * skipped (`model_warming`) with what was observed, which joins the corpus once the mint resolves. 200 is the
     * model's own warming line; 0 serves the prior of an empty corpus (tests that run lifecycles without a corpus).
     */
    MODEL_MIN_SERVING_CORPUS: z.coerce.number().int().min(0).max(1_000_000).default(200),
    /**
     * The grad_prob model version that serves until the promotion rule promotes another (by name, from
     * domain/scoring/grad-model-versions.ts; an unknown name stops the worker at start).
     */
    MODEL_CHAMPION: z.string().trim().min(1).default('knn-v1'),
    /** Model versions scoring every mint in shadow (comma-separated names; empty: none). Each costs one more grad_prob fit per refit. */
    MODEL_CHALLENGERS: z.string().default('knn-v1-k25'),
  },
  (e) => ({
    mint: {
      liveWindowS: e.LIVE_WINDOW_S,
      liveMaxEntries: e.LIVE_MAX_ENTRIES,
      liveRefreshMs: e.LIVE_REFRESH_MS,
      liveStaleAfterS: e.LIVE_STALE_AFTER_S,
      modelRefitEveryS: e.MODEL_REFIT_EVERY_S,
      corpusLimit: e.CORPUS_LIMIT,
      minServingCorpus: e.MODEL_MIN_SERVING_CORPUS,
      champion: e.MODEL_CHAMPION,
      challengers: csv(e.MODEL_CHALLENGERS),
    },
  }),
);
