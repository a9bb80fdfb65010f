import type { GateValidationStore } from '../../db/accuracy/gate-validation-store';
import { gateInputsSha256, gateResultJson, gateRunInputs, gateWindowStart, recomputeGateRun } from '../../domain/accuracy/gate-validation-run';
import type { GateValidationRunResult } from '../../workflows/accuracy/gate-validation-contract';

export type GateValidationDeps = { gateValidationStore: GateValidationStore; now: () => Date };

const HOUR_MS = 3_600_000;

export function createGateValidationActivities(d: GateValidationDeps) {
  return {
    /**
     * The run of the current UTC hour: its window ends at the hour's start, so a retry, a second run in the same hour
     * or a run delayed by an outage reads the same rows and answers the run already stored.
     */
    async runGateValidation(): Promise<GateValidationRunResult> {
      const now = d.now();
      const windowEnd = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
      const existing = await d.gateValidationStore.at(windowEnd);
      if (existing) return { runId: existing.id, windowEnd: windowEnd.toISOString(), decision: existing.decision, n: existing.result.n, created: false };
      const [prev, fires] = await Promise.all([d.gateValidationStore.before(windowEnd), d.gateValidationStore.fires(windowEnd)]);
      const inputs = gateRunInputs(windowEnd, prev && { run_id: prev.id, decision: prev.decision, hold_target_n: prev.holdTargetN }, fires);
      const result = recomputeGateRun(inputs);
      const windowStart = gateWindowStart(inputs);
      const { run, created } = await d.gateValidationStore.insert({
        windowEnd,
        runAt: now,
        windowStart: windowStart === null ? null : new Date(windowStart),
        decision: result.decision,
        holdTargetN: result.holdTargetN,
        result: gateResultJson(result),
        inputs,
        inputsSha256: gateInputsSha256(inputs),
      });
      return { runId: run.id, windowEnd: windowEnd.toISOString(), decision: run.decision, n: run.result.n, created };
    },
  };
}
export type GateValidationActivities = ReturnType<typeof createGateValidationActivities>;
