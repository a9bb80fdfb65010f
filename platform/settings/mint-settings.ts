import { z } from 'zod';
import { csv, defineSettings } from './settings';

/** The mint pipeline's scoring: the models' refit period and corpus. */
export const mintSettings = defineSettings(
  {
    /** How often every k-NN model (grad, rug, runner, survival) is refitted in the background. */
    MODEL_REFIT_EVERY_S: z.coerce.number().int().min(10).max(86_400).default(600),
    /** Newest resolved mints per scoring age each k-NN model fits on. */
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
    /**
     * Model versions scoring every mint in shadow (comma-separated names; empty: none). Each costs one more grad_prob
     * fit per refit (knn-v2: ~12 s CPU per age at a 200k-row corpus, docs/model.md).
     */
    MODEL_CHALLENGERS: z.string().default('knn-v1-k25,knn-v2'),
  },
  (e) => ({
    mint: {
      modelRefitEveryS: e.MODEL_REFIT_EVERY_S,
      corpusLimit: e.CORPUS_LIMIT,
      minServingCorpus: e.MODEL_MIN_SERVING_CORPUS,
      champion: e.MODEL_CHAMPION,
      challengers: csv(e.MODEL_CHALLENGERS),
    },
  }),
);
