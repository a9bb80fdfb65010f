import type { Knex } from 'knex';
import type { GateDecision } from '../../domain/accuracy/gate-validation';
import { GATE_VALIDATION, gateWithholds } from '../../domain/accuracy/gate-validation';
import { GATE_OUTCOME } from '../../domain/accuracy/gate-validation-outcome';
import type { GateFireRow, GateResultJson, GateRunInputs } from '../../domain/accuracy/gate-validation-run';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type StoredGateRun = {
  id: number;
  windowEnd: Date;
  runAt: Date;
  windowStart: Date | null;
  decision: GateDecision;
  holdTargetN: number | null;
  result: GateResultJson;
  inputs: GateRunInputs;
  inputsSha256: string;
};

/** The hard suppression a `validates` run turns on: what the alert paths read (`withheldCrosses`; README, "Gate validation"). */
export type GateSuppression = {
  gate: typeof GATE_VALIDATION.gate;
  /** true while the newest run's decision is `validates`. */
  active: boolean;
  /** Alerts on a mint whose post_grad_survival_prob is below this are suppressed while active. */
  suppressBelow: number;
  runId: number | null;
  decidedAt: Date | null;
};

const iso = (d: Date) => d.toISOString();
const run = (r: Record<string, any>): StoredGateRun => ({
  id: Number(r.id),
  windowEnd: r.window_end,
  runAt: r.run_at,
  windowStart: r.window_start,
  decision: r.decision,
  holdTargetN: r.hold_target_n,
  result: r.result,
  inputs: r.inputs,
  inputsSha256: r.inputs_sha256,
});

/**
 * The survival score a delivered cross (`cp`, a composite_predictions row) had logged by its delivery (`tiered_at`):
 * what the gate's split reads, and so what its suppression reads.
 */
const SURVIVAL_AT_DELIVERY = `(SELECT p.survival_prob FROM predictions p
                  WHERE p.mint = cp.mint AND p.survival_prob IS NOT NULL AND p.as_of <= cp.tiered_at
                  ORDER BY p.as_of DESC LIMIT 1)`;

/** Gate-validation runs (immutable rows, migration 0020) and the fires they are computed from. */
export function createGateValidationStore(handle: Db) {
  const db = knexOf(handle);
  async function suppression(on: Knex = db): Promise<GateSuppression> {
    const r = await on('gate_validation_runs').where({ gate: GATE_VALIDATION.gate }).orderBy('window_end', 'desc').first('id', 'decision', 'run_at');
    return {
      gate: GATE_VALIDATION.gate,
      active: r?.decision === 'validates',
      suppressBelow: GATE_VALIDATION.splitAt,
      runId: r ? Number(r.id) : null,
      decidedAt: r?.run_at ?? null,
    };
  }

  return {
    /** The fires of composite crosses whose mint graduated after the cross and whose 30 min after graduation end by `windowEnd`. */
    async fires(windowEnd: Date): Promise<GateFireRow[]> {
      const { rows } = await db.raw<{ rows: Record<string, any>[] }>(
        `SELECT cp.mint, cp.crossed_at, cp.price_at_cross_sol, g.graduated_at,
                cp.features #> '{facts,signals,bot,manufactured_pump}' AS manufactured_pump,
                cp.features #> '{facts,signals,bot,bundle_detected}' AS bundle_detected,
                ${SURVIVAL_AT_DELIVERY} AS survival_prob,
                (SELECT max(c.graduation_price_sol) FROM post_grad_checkpoints c WHERE c.mint = cp.mint AND c.observed_at <= :end) AS graduation_price_sol,
                COALESCE((SELECT json_agg(json_build_object('after_s', c.after_s, 'price_sol', c.price_sol) ORDER BY c.after_s)
                  FROM post_grad_checkpoints c WHERE c.mint = cp.mint AND c.observed_at <= :end), '[]') AS checkpoints
           FROM composite_predictions cp
           JOIN LATERAL (SELECT COALESCE(mg.completed_at, mg.migrated_at) AS graduated_at FROM mint_graduations mg WHERE mg.mint = cp.mint) g ON true
          WHERE cp.tier IS NOT NULL AND g.graduated_at IS NOT NULL AND g.graduated_at >= cp.crossed_at
            AND g.graduated_at + make_interval(secs => :windowS) <= :end`,
        { end: windowEnd, windowS: GATE_OUTCOME.windowS },
      );
      return rows.map((r) => ({
        mint: r.mint,
        crossed_at: iso(r.crossed_at),
        entry_price_sol: r.price_at_cross_sol,
        graduated_at: iso(r.graduated_at),
        survival_prob: r.survival_prob ?? null,
        manufactured_pump: typeof r.manufactured_pump === 'boolean' ? r.manufactured_pump : null,
        bundle_detected: r.bundle_detected === true,
        graduation_price_sol: r.graduation_price_sol ?? null,
        checkpoints: r.checkpoints,
      }));
    },

    /** The newest run before `windowEnd` (the one a hold carries over from). */
    async before(windowEnd: Date): Promise<StoredGateRun | null> {
      const r = await db('gate_validation_runs')
        .where({ gate: GATE_VALIDATION.gate })
        .where('window_end', '<', windowEnd)
        .orderBy('window_end', 'desc')
        .first();
      return r ? run(r) : null;
    },

    async at(windowEnd: Date): Promise<StoredGateRun | null> {
      const r = await db('gate_validation_runs').where({ gate: GATE_VALIDATION.gate, window_end: windowEnd }).first();
      return r ? run(r) : null;
    },

    /** Stores a run once per window end; a retry of the same hour answers the run already stored. */
    async insert(r: Omit<StoredGateRun, 'id'>): Promise<{ run: StoredGateRun; created: boolean }> {
      const inserted = await db('gate_validation_runs')
        .insert({
          gate: GATE_VALIDATION.gate,
          window_end: r.windowEnd,
          run_at: r.runAt,
          window_start: r.windowStart,
          decision: r.decision,
          hold_target_n: r.holdTargetN,
          previous_run_id: r.inputs.previous?.run_id ?? null,
          result: JSON.stringify(r.result),
          inputs: JSON.stringify(r.inputs),
          inputs_sha256: r.inputsSha256,
        })
        .onConflict(['gate', 'window_end'])
        .ignore()
        .returning('*');
      if (inserted[0]) return { run: run(inserted[0]), created: true };
      return { run: (await this.at(r.windowEnd))!, created: false };
    },

    async history(limit: number): Promise<StoredGateRun[]> {
      const rows = await db('gate_validation_runs').where({ gate: GATE_VALIDATION.gate }).orderBy('window_end', 'desc').limit(limit);
      return rows.map(run);
    },

    /**
     * Which of these delivered crosses (composite prediction ids) the gate withholds from alerts now (`gateWithholds`):
     * none while the newest run does not validate, so the usual case costs one indexed read. `on`: a transaction to
     * read in (the relay's, so it waits for no second connection while it holds its cursor).
     */
    async withheldCrosses(predictionIds: readonly number[], onHandle: Db = handle): Promise<Set<number>> {
      if (predictionIds.length === 0) return new Set();
      const on = knexOf(onHandle);
      const state = await suppression(on);
      if (!state.active) return new Set();
      const { rows } = await on.raw<{ rows: { id: string; survival_prob: number | null }[] }>(
        `SELECT cp.id, ${SURVIVAL_AT_DELIVERY} AS survival_prob FROM composite_predictions cp WHERE cp.id = ANY (?::bigint[])`,
        [[...predictionIds]],
      );
      return new Set(rows.filter((r) => gateWithholds(state, r.survival_prob)).map((r) => Number(r.id)));
    },

    suppression,
  };
}
export type GateValidationStore = ReturnType<typeof createGateValidationStore>;
