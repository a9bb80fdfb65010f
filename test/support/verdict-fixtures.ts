import type { Tier } from '../../domain/signals/tier-rules';
import { insertTestCross } from './composite-fixtures';
import type { KnexDb } from '../../db/knex-handle';

/**
 * Hand-built verdict evidence, written where the pipeline writes it: tiered composite crosses with their 24 h
 * outcome (the resolver's columns), and the benchmark (non-mayhem mints scored at 60 s with their prediction outcome).
 */
export async function insertTierCrosses(
  db: KnexDb,
  tier: Tier,
  o: { n: number; hits: number; fromMs: number; everyMs: number; resolved?: boolean; labelVersion?: string },
): Promise<void> {
  for (let i = 0; i < o.n; i++) {
    const crossedAtMs = o.fromMs + i * o.everyMs;
    const x = await insertTestCross(db, { crossedAtMs });
    const resolved = o.resolved ?? true;
    await db('composite_predictions')
      .where({ id: x.id })
      .update({
        tier,
        gp_60: tier === 'ACT' ? 0.3 : tier === 'WATCH' ? 0.15 : 0.05,
        tiered_at: new Date(crossedAtMs + 20_000),
        label_version: resolved ? (o.labelVersion ?? 'v1') : null,
        did_graduate: resolved ? i % 2 === 0 : null,
        peak_mult_24h: resolved ? (i < o.hits ? 6 : 1.5) : null,
        did_sustain_30m: null,
        resolved_at: resolved ? new Date(crossedAtMs + 86_400_000) : null,
      });
  }
}

/** `n` benchmark mints scored at 60 s from `fromMs`, `perHour` an hour, `hits` of them reaching 5×, all resolved unless `unresolved`. */
export async function insertBenchmark(db: KnexDb, o: { n: number; hits: number; fromMs: number; perHour: number; unresolved?: number; tag?: string }) {
  const tag = o.tag ?? 'bench';
  const params = { n: o.n, from: new Date(o.fromMs), step: 3_600 / o.perHour, tag };
  await db.raw(
    `INSERT INTO mints (mint, creator, name, symbol, uri, bonding_curve, mayhem, created_at, create_signature, initial_v_sol_lamports, initial_v_tokens_raw, source)
     SELECT :tag || g, 'dev', 'B', 'B', '', 'curve' || g, false, :from::timestamptz + make_interval(secs => (g - 1) * :step::double precision) - interval '60 seconds',
            'sig-' || :tag || g, 30000000000, 1073000000000000, 'test'
       FROM generate_series(1, :n) g`,
    params,
  );
  await db.raw(
    `INSERT INTO predictions (mint, age_bucket, as_of, predicted_at, grad_prob, raw_prob, model_version, features, calibration, price_sol)
     SELECT :tag || g, 60, :from::timestamptz + make_interval(secs => (g - 1) * :step::double precision), :from::timestamptz + make_interval(secs => (g - 1) * :step::double precision),
            0.05, 0.05, 'knn-v1@60:0:x', '{}', '{}', 3e-8
       FROM generate_series(1, :n) g`,
    params,
  );
  await db.raw(
    `INSERT INTO prediction_outcomes (prediction_id, label_version, graduated, peak_mult_24h, resolved_at)
     SELECT p.id, 'v1', false, CASE WHEN substr(p.mint, length(:tag) + 1)::int <= :hits THEN 5 ELSE 1.2 END, p.as_of + interval '24 hours'
       FROM predictions p WHERE p.mint LIKE :tag || '%' AND p.age_bucket = 60 AND substr(p.mint, length(:tag) + 1)::int <= :resolvedN`,
    { tag, hits: o.hits, resolvedN: o.n - (o.unresolved ?? 0) },
  );
}
