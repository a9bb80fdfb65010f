import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type SkipReason = 'graduated' | 'model_warming';

export type NewScoreSkip = {
  mint: string;
  ageBucket: number;
  asOf: Date;
  recordedAt: Date;
  reason: SkipReason;
  /** `graduated`: when the curve completed. */
  graduatedAt: Date | null;
  /** `model_warming`: the warming model's version, and what was observed (a corpus row once the mint resolves). */
  modelVersion: string | null;
  features: Record<string, number | boolean | Readonly<Record<string, number>>> | null;
  rugFeatures: Record<string, number> | null;
  priceSol: number | null;
};

export type ScoreSkip = { id: number; mint: string; ageBucket: number; asOf: Date; reason: SkipReason; priceSol: number | null };

/** Scoring moments that logged no prediction, with the reason (migration 0029). Once per (mint, age bucket). */
export function createScoreSkipStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /** Idempotent: a retried activity finds the first record and returns its reason. */
    async record(s: NewScoreSkip): Promise<SkipReason> {
      await db('score_skips')
        .insert({
          mint: s.mint,
          age_bucket: s.ageBucket,
          as_of: s.asOf,
          recorded_at: s.recordedAt,
          reason: s.reason,
          graduated_at: s.graduatedAt,
          model_version: s.modelVersion,
          features: s.features === null ? null : JSON.stringify(s.features),
          rug_features: s.rugFeatures === null ? null : JSON.stringify(s.rugFeatures),
          price_sol: s.priceSol,
        })
        .onConflict(['mint', 'age_bucket'])
        .ignore();
      const row = await db('score_skips').where({ mint: s.mint, age_bucket: s.ageBucket }).first('reason');
      return row.reason;
    },

    async byMint(mint: string): Promise<ScoreSkip[]> {
      const rows = await db('score_skips').where({ mint }).orderBy('age_bucket').select('id', 'mint', 'age_bucket', 'as_of', 'reason', 'price_sol');
      return rows.map((r) => ({ id: Number(r.id), mint: r.mint, ageBucket: r.age_bucket, asOf: r.as_of, reason: r.reason, priceSol: r.price_sol ?? null }));
    },

    /** The runner label of a warming observation, written once when its mint resolves. */
    async recordPeakMults(peaks: readonly { skipId: number; peakMult24h: number }[]): Promise<void> {
      for (const p of peaks) await db('score_skips').where({ id: p.skipId }).whereNull('peak_mult_24h').update({ peak_mult_24h: p.peakMult24h });
    },
  };
}
export type ScoreSkipStore = ReturnType<typeof createScoreSkipStore>;
