import { z } from 'zod';
import { defineSettings } from './settings';

/** The mint pipeline's scoring: the models' refit period and corpus. */
export const mintSettings = defineSettings(
  {
    /** How often every k-NN model (grad, rug, runner, survival) is refitted in the background. */
    MODEL_REFIT_EVERY_S: z.coerce.number().int().min(10).max(86_400).default(600),
    /** Newest resolved mints per scoring age each k-NN model fits on. */
    CORPUS_LIMIT: z.coerce.number().int().min(100).max(5_000_000).default(200_000),
  },
  (e) => ({
    mint: {
      modelRefitEveryS: e.MODEL_REFIT_EVERY_S,
      corpusLimit: e.CORPUS_LIMIT,
    },
  }),
);
