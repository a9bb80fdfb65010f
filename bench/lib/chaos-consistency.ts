import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { dailyQuota, type Tier } from '../../domain/access/tiers';
import type { OwnStack } from '../../scripts/lib/own-stack';
import { MINT_LIFECYCLE_WORKFLOW, mintWorkflowId, stateQuery } from '../../workflows/mint/mint-lifecycle-contract';
import { pgQuery } from './stack-probes';

/**
 * What must still hold after processes were killed, read from Postgres and asked of Temporal. Each count is
 * what went wrong, so every one should be 0.
 */
export type Consistency = {
  mintsChecked: number;
  /** Non-mayhem mints old enough to be scored, with an age bucket that has no prediction and was not skipped as late. */
  missingScores: number;
  /** Buckets the lifecycle skipped because the worker was down past the allowed lateness (by design, not an error). */
  skippedLate: number;
  duplicatePredictions: number;
  /** Non-mayhem mints with no `mint:<address>` workflow in Temporal. */
  withoutLifecycle: number;
  /** Intents activated without being paid in full, and plan grants or paid tiers without a paid intent behind them. */
  activatedWithoutPayment: number;
  quotaRowsOverLimit: number;
};

/** Mints created in [from, before) are checked: `before` leaves the last minute and a half to finish scoring. */
export async function checkConsistency(stack: OwnStack, o: { from: Date; before: Date; buckets: readonly number[] }): Promise<Consistency> {
  const mints = (
    await pgQuery<{ mint: string; buckets: number[] }>(
      stack,
      `SELECT m.mint, coalesce(array_agg(p.age_bucket) FILTER (WHERE p.age_bucket IS NOT NULL), '{}') AS buckets
         FROM mints m LEFT JOIN predictions p USING (mint)
        WHERE NOT m.mayhem AND m.created_at >= $1 AND m.created_at < $2 GROUP BY m.mint`,
      [o.from, o.before],
    )
  ).map((r) => ({ mint: r.mint, buckets: r.buckets.map(Number) }));

  const connection = await Connection.connect({ address: stack.temporalAddress });
  const temporal = new Client({ connection });
  try {
    const listed = new Set<string>();
    for await (const w of temporal.workflow.list({ query: `WorkflowType = '${MINT_LIFECYCLE_WORKFLOW}'` })) listed.add(w.workflowId);
    let withoutLifecycle = 0;
    let missingScores = 0;
    let skippedLate = 0;
    for (const m of mints) {
      const missing = o.buckets.filter((b) => !m.buckets.includes(b));
      // Visibility lags a little behind: a mint the listing does not show is asked about directly.
      const exists = listed.has(mintWorkflowId(m.mint)) || (await workflowExists(temporal, mintWorkflowId(m.mint)));
      if (!exists) withoutLifecycle++;
      if (missing.length === 0) continue;
      const state = exists
        ? await temporal.workflow
            .getHandle(mintWorkflowId(m.mint))
            .query(stateQuery)
            .catch(() => undefined)
        : undefined;
      const late = missing.filter((b) => state?.scores.find((s) => s.bucket === b)?.status === 'skipped_late').length;
      skippedLate += late;
      if (late < missing.length) missingScores++;
    }

    const [dup] = await pgQuery<{ n: string }>(stack, 'SELECT count(*) AS n FROM (SELECT 1 FROM predictions GROUP BY mint, age_bucket HAVING count(*) > 1) d');
    const [unpaid] = await pgQuery<{ n: string }>(
      stack,
      `SELECT (SELECT count(*) FROM payment_intents
                WHERE activated_at IS NOT NULL
                  AND (paid_at IS NULL OR CASE WHEN pay_with = 'token' THEN counted_tokens_raw < amount_tokens_raw ELSE counted_lamports < amount_lamports END))
            + (SELECT count(*) FROM api_key_plan_grants g
                WHERE g.grant_id LIKE 'payment:%'
                  AND NOT EXISTS (SELECT 1 FROM payment_intents i WHERE 'payment:' || i.memo = g.grant_id AND i.paid_at IS NOT NULL))
            + (SELECT count(*) FROM api_keys k
                WHERE k.tier <> 'free' AND k.source = 'upgrade'
                  AND NOT EXISTS (SELECT 1 FROM api_key_plan_grants g WHERE g.key_id = k.id)) AS n`,
    );
    const usage = await pgQuery<{ used: number; tier: Tier; custom_daily_quota: number | null }>(
      stack,
      'SELECT u.used, k.tier, k.custom_daily_quota FROM api_key_daily_usage u JOIN api_keys k ON k.id = u.key_id',
    );
    return {
      mintsChecked: mints.length,
      missingScores,
      skippedLate,
      duplicatePredictions: Number(dup?.n ?? 0),
      withoutLifecycle,
      activatedWithoutPayment: Number(unpaid?.n ?? 0),
      // The plan's own tier: no key in the benchmark holds the holder token, which could only raise the limit.
      quotaRowsOverLimit: usage.filter((u) => u.used > dailyQuota(u.tier, u.custom_daily_quota)).length,
    };
  } finally {
    await connection.close();
  }
}

async function workflowExists(temporal: Client, id: string): Promise<boolean> {
  try {
    await temporal.workflow.getHandle(id).describe();
    return true;
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) return false;
    throw e;
  }
}
