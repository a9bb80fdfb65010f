import { accuracyActivities } from '../../../activities/accuracy';
import { createGateValidationStore } from '../../../db/accuracy/gate-validation-store';
import { gateInputsSha256, recomputeGateRun, type GateRunInputs } from '../../../domain/accuracy/gate-validation-run';
import { loadConfig } from '../../../platform/config';
import { call, useApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { errorLocs, typedApi } from '../../support/typed-api';
import { insertGateFire, insertGateFires } from '../../support/gate-validation-fixtures';

const { t, api } = useApi();
const http = typedApi(() => api.url);
const B = Date.parse('2026-12-10T00:00:00Z');
const H = 3_600_000;

/** The hourly run as the Schedule's activity makes it, at `hours` past B (+5 min). */
async function runAt(hours: number) {
  const acts = accuracyActivities.create({ cfg: loadConfig({}), db: t.db, now: () => new Date(B + hours * H + 5 * 60_000) });
  return acts.runGateValidation();
}

async function latest() {
  const r = await http.GET('/api/gate_validation');
  expect(r.response.status).toBe(200);
  expect(r.data!.count).toBe(1);
  return r.data!.runs[0]!;
}

describe('GET /api/gate_validation over hand-built fires', () => {
  it('answers an empty list before the first run', async () => {
    const r = await http.GET('/api/gate_validation', { params: { query: { history: 5 } } });
    expect(r.response.status).toBe(200);
    expect(r.data).toEqual({ count: 0, runs: [] });
    expect((await createGateValidationStore(t.db).suppression()).active).toBe(false);
  });

  it('warming: 14 fires at or above 0.5 survival is one short of 15', async () => {
    await insertGateFires(t.db, B, { n: 14, hits: 6, survival: 0.5 });
    await insertGateFires(t.db, B + 7 * 60_000, { n: 15, hits: 5, survival: 0.49, bundle: true });
    await insertGateFire(t.db, B + 15 * 60_000, { survival: null, reached: true });
    await insertGateFire(t.db, B + 16 * 60_000, { survival: 0.9, reached: null });
    // Graduated after this run's window: waits for the next one.
    await insertGateFire(t.db, B + H + 5 * 60_000, { survival: 0.9, reached: false });
    const res = await runAt(1);
    expect(res).toMatchObject({ decision: 'warming', n: 29, created: true });
    const run = await latest();
    expect(run).toMatchObject({
      gate: 'post_grad_survival_prob',
      population: 'graduated_composite_crosses',
      decision: 'warming',
      window_end: new Date(B + H).toISOString(),
      window_start: new Date(B).toISOString(),
      n: 29,
      buckets: { flagged: { n: 14, hits: 6, outcome_rate: 6 / 14 }, unflagged: { n: 15, hits: 5, outcome_rate: 5 / 15 } },
      excluded: { no_survival_score: 1, outcome_unknown: 1 },
      hold_target_n: null,
      manufactured_pump_unknown: 29,
      suppression_active: false,
    });
    expect(run.ratio).toBeCloseTo(6 / 14 / (5 / 15), 12);
    const strata = Object.fromEntries(run.stratifications.map((s) => [`${s.by}:${s.value}`, s]));
    expect(strata['bundle_detected:true']!.buckets).toEqual({
      flagged: { n: 0, hits: 0, outcome_rate: null },
      unflagged: { n: 15, hits: 5, outcome_rate: 1 / 3 },
    });
    expect(strata['bundle_detected:false']!.buckets.flagged).toEqual({ n: 14, hits: 6, outcome_rate: 6 / 14 });
    expect(strata['manufactured_pump:true']!.buckets.flagged.n + strata['manufactured_pump:false']!.buckets.flagged.n).toBe(0);
    // A second run in the same hour is the same run.
    expect(await runAt(1)).toMatchObject({ runId: res.runId, created: false });
  });

  it('fails: 15 or more in each group with a ratio below 1.5', async () => {
    await insertGateFire(t.db, B + H + 20 * 60_000, { survival: 0.8, reached: false });
    const run = (await runAt(2), await latest());
    // The fire that graduated late in hour 1 counts now, with the new one: flagged 16 (6 hits), unflagged 15 (5).
    expect(run).toMatchObject({ decision: 'fails', n: 31, buckets: { flagged: { n: 16, hits: 6 }, unflagged: { n: 15, hits: 5 } }, hold_target_n: null });
    expect(run.ratio).toBeCloseTo(6 / 16 / (5 / 15), 12);
  });

  it('hold: a ratio in [1.5, 2) collects 30 more fires, and holds until it has them even when the ratio moves', async () => {
    // unflagged 24 (5 hits): 0.375 ÷ (5/24) = 1.8.
    await insertGateFires(t.db, B + 2 * H, { n: 9, hits: 0, survival: 0.1 });
    let run = (await runAt(3), await latest());
    expect(run).toMatchObject({ decision: 'hold', n: 40, hold_target_n: 70 });
    expect(run.ratio).toBeCloseTo(1.8, 12);
    await insertGateFires(t.db, B + 3 * H, { n: 10, hits: 10, survival: 0.95 });
    run = (await runAt(4), await latest());
    expect(run).toMatchObject({ decision: 'hold', n: 50, hold_target_n: 70, suppression_active: false });
    expect(run.ratio).toBeGreaterThan(2);
  });

  it('validates at the hold target with a ratio ≥ 2: the gate becomes a hard suppression', async () => {
    await insertGateFires(t.db, B + 4 * H, { n: 20, hits: 0, survival: 0.2 });
    const run = (await runAt(5), await latest());
    expect(run).toMatchObject({
      decision: 'validates',
      n: 70,
      buckets: { flagged: { n: 26, hits: 16 }, unflagged: { n: 44, hits: 5 } },
      suppression_active: true,
    });
    expect(await createGateValidationStore(t.db).suppression()).toMatchObject({ active: true, suppressBelow: 0.5, runId: run.id });
  });

  it('keeps every run, newest first, each reproducible from its stored inputs and never changed', async () => {
    const r = await http.GET('/api/gate_validation', { params: { query: { history: 100 } } });
    expect(r.response.status).toBe(200);
    expect(r.data!.runs.map((x) => x.decision)).toEqual(['validates', 'hold', 'hold', 'fails', 'warming']);
    expect(r.data!.runs.filter((x) => x.suppression_active)).toHaveLength(1);
    const rows: { id: string; inputs: GateRunInputs; inputs_sha256: string; decision: string; hold_target_n: number | null }[] = await t
      .db('gate_validation_runs')
      .orderBy('id')
      .select('id', 'inputs', 'inputs_sha256', 'decision', 'hold_target_n');
    for (const row of rows) {
      expect(gateInputsSha256(row.inputs)).toBe(row.inputs_sha256);
      expect(recomputeGateRun(row.inputs)).toMatchObject({ decision: row.decision, holdTargetN: row.hold_target_n });
    }
    await expect(t.db('gate_validation_runs').update({ decision: 'fails' })).rejects.toThrow(/refused/);
    await expect(t.db('gate_validation_runs').delete()).rejects.toThrow(/refused/);
  });

  it('answers 422 for a history below 1, and serves a longer one clamped to 100 runs (the spec gives no maximum)', async () => {
    const low = await http.GET('/api/gate_validation', { params: { query: { history: 0 } } });
    expect(low.response.status).toBe(422);
    expect(errorLocs(low.error)).toEqual(['query.history']);
    const long = await http.GET('/api/gate_validation', { params: { query: { history: 101 } } });
    expect(long.response.status).toBe(200);
    // history=x is input the types forbid: raw HTTP, its 422 checked against openapi.yaml.
    const r = await call(`${api.url}/api/gate_validation?history=x`);
    expect(r.status).toBe(422);
    expectConforms('get', '/api/gate_validation', 422, r.body);
  });
});
