import { z } from 'zod';
import { defineSettings } from './settings';

/** The mint pipeline's scoring: the models' refit period and corpus. */
export const mintSettings = defineSettings(
  {
    MODEL_REFIT_EVERY_S: z.coerce.number().int().min(10).max(86_400).default(600),
    CORPUS_LIMIT: z.coerce.number().int().min(100).max(5_000_000).default(200_000),
  },
  (e) => ({
    mint: {
      modelRefitEveryS: e.MODEL_REFIT_EVERY_S,
      corpusLimit: e.CORPUS_LIMIT,
    },
  }),
);
