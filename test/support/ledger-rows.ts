import type { KnexDb } from '../../db/knex-handle';

/**
 * Prediction rows as the scoring activity writes them (features, calibration record, model versions), many at once
 * in one statement, spread over one UTC hour at whole-second times out of `slots` (so rows share a millisecond and
 * the id decides their order), in a scrambled insertion order. Returns the ids inserted.
 */
export async function insertPredictionRows(
  db: KnexDb,
  o: { hourStart: Date; count: number; tag?: string; slots?: number; ageBuckets?: [number, ...number[]] },
): Promise<number[]> {
  const slots = o.slots ?? 1800;
  const step = Math.floor(3_600_000 / slots);
  const { rows } = await db.raw<{ rows: { id: number }[] }>(
    `INSERT INTO predictions (mint, age_bucket, as_of, predicted_at, grad_prob, raw_prob, model_version, features, calibration, price_sol,
                              rug_prob, runner_odds, survival_prob, model_versions, rug_features, context)
     SELECT ? || g, CASE WHEN g % 2 = 0 THEN 30 ELSE 60 END, t - interval '250 milliseconds', t, p, p, 'knn-v1@60:1000:test',
            jsonb_build_object('vSolSol', 30 + g % 50, 'vSolGrowthSol', (g % 17) / 3.0, 'logTrades', ln(2 + g % 40), 'logUniqueBuyers', ln(2 + g % 30),
                               'topBuyerShare', (g % 100) / 250.0, 'currentMult', 1 + (g % 23) / 7.0, 'buyCount', g % 40, 'sellCount', g % 9,
                               'uniqueBuyers', g % 30, 'creatorSold', g % 5 = 0),
            jsonb_build_object('age_bucket', 60, 'confidence_band', jsonb_build_object('lo', 0.5, 'hi', 0.7), 'n', g % 400,
                               'historical_actual_rate', CASE WHEN g % 400 = 0 THEN NULL ELSE (g % 7) / 7.0 END, 'model_version', 'knn-v1@60:1000:test'),
            2.8e-8 + (g % 1000) * 1e-10, NULL, NULL, NULL, '{}'::jsonb, '{}'::jsonb, '{}'::jsonb
       FROM (SELECT g, ?::timestamptz + ((g * 7919) % ?) * ? * interval '1 millisecond' AS t, ((g * 104729) % 1000) / 1000.0 AS p
               FROM generate_series(1, ?) AS g ORDER BY (g * 2654435761) % 4294967291) s
     RETURNING id`,
    [`Mint${o.tag ?? 'x'}`, o.hourStart.toISOString(), slots, step, o.count],
  );
  return rows.map((r) => r.id);
}
