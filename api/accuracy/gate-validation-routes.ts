import { Router } from 'express';
import type { GateValidationStore, StoredGateRun } from '../../db/accuracy/gate-validation-store';

/** Runs one answer carries at most (the spec gives `history` no upper bound; openapi.yaml says so). */
const MAX_RUNS = 100;

export type GateValidationRouteDeps = { gateValidationStore: GateValidationStore };

/** A stored run as served: its result as computed, with the times and the hash of the inputs it was computed from. */
const view = (r: StoredGateRun, newest: boolean) => ({
  id: r.id,
  run_at: r.runAt.toISOString(),
  window_start: r.windowStart ? r.windowStart.toISOString() : null,
  window_end: r.windowEnd.toISOString(),
  ...r.result,
  inputs_sha256: r.inputsSha256,
  // Only the newest run's decision governs the gate (db/accuracy/gate-validation-store.ts `suppression`).
  suppression_active: newest && r.decision === 'validates',
});

/** `GET /api/gate_validation`: the newest `history` runs, newest first; an empty list before the first hourly run. */
export function gateValidationRoutes(d: GateValidationRouteDeps): Router {
  const r = Router();
  r.get('/api/gate_validation', async (req, res) => {
    const history = Math.min((req.query as { history?: number }).history ?? 1, MAX_RUNS);
    const runs = await d.gateValidationStore.history(history);
    res.set('Cache-Control', 'public, max-age=60').json({ count: runs.length, runs: runs.map((x, i) => view(x, i === 0)) });
  });
  return r;
}
