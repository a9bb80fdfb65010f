import { createBackfillOutcomeStore } from '../../../db/history/backfill-outcome-store';
import { createHistoryStore } from '../../../db/mint/history-store';
import { createRunnerNowStore } from '../../../db/mint/runner-now-store';
import { CURVE, type CreateEvent, type TradeEvent } from '../../../domain/launch/launch-events';
import { labelLaunch } from '../../../domain/scoring/launch-histories';
import { runnerObservations } from '../../../domain/scoring/runner-grid';
import { loadConfig } from '../../../platform/config';
import { scheduleSpecs } from '../../../workers/schedules';
import { ensureSchedules } from '../../../workflows/schedule-starter';
import { BASE_RATES_SCHEDULE_ID, BASE_RATES_WORKFLOW, type BaseRatesResult } from '../../../workflows/accuracy/base-rates-contract';
import { typedApi } from '../../support/typed-api';
import type { startApi } from '../../support/api-harness';
import type { createTestDatabase } from '../../support/test-db';
import { startWorker, uniqueId, useWorker } from '../../support/worker-harness';

let bed: { t: Awaited<ReturnType<typeof createTestDatabase>>; api: Awaited<ReturnType<typeof startApi>> };
let w: Awaited<ReturnType<typeof startWorker>>;
useWorker({ api: {} }, (b) => {
  bed = b;
  w = b.w;
});
const http = typedApi(() => bed.api.url);

const DAY = 86_400_000;
const K = CURVE.initialVSolLamports * CURVE.initialVTokensRaw;

/** One launch whose curve stands at each (seconds after creation, virtual SOL) of `path`, one buy per step. */
function launch(tag: string, createdAt: number, path: readonly [number, number][]): { create: CreateEvent; trades: TradeEvent[] } {
  const mint = tag.padEnd(44, 'M');
  const create: CreateEvent = {
    kind: 'create',
    signature: `c${tag}`.padEnd(88, 's'),
    ordinal: 0,
    slot: 1,
    at: new Date(createdAt),
    source: 'test',
    mint,
    name: tag,
    symbol: tag,
    uri: '',
    bondingCurve: `b${tag}`.padEnd(44, 'B'),
    creator: `d${tag}`.padEnd(44, 'D'),
    mayhem: false,
    vSolLamports: CURVE.initialVSolLamports,
    vTokensRaw: CURVE.initialVTokensRaw,
  };
  let vSol: number = CURVE.initialVSolLamports;
  const trades = path.map(([s, sol], i): TradeEvent => {
    const next = sol * 1e9;
    const t: TradeEvent = {
      kind: 'trade',
      signature: `t${tag}${i}`.padEnd(88, 's'),
      ordinal: 0,
      slot: 2 + i,
      at: new Date(createdAt + s * 1000),
      source: 'test',
      mint,
      trader: `w${tag}${i}`.padEnd(44, 'W'),
      isBuy: next >= vSol,
      solLamports: Math.abs(next - vSol),
      tokensRaw: Math.abs(K / vSol - K / next),
      vSolLamports: next,
      vTokensRaw: K / next,
    };
    vSol = next;
    return t;
  });
  return { create, trades };
}

/** Writes a resolved launch as the lifecycle (`live`) or a seeded history run (`synthetic`) writes one. */
async function resolved(source: 'live' | 'synthetic', l: { create: CreateEvent; trades: TradeEvent[] }) {
  const horizonAt = new Date(l.create.at.getTime() + DAY);
  const labelled = labelLaunch(l.create, l.trades, null, horizonAt);
  if (source === 'synthetic') await createHistoryStore(bed.t.db).insert(uniqueId('run'), 'synthetic', [labelled]);
  else await createBackfillOutcomeStore(bed.t.db).record([labelled], horizonAt);
  const rows = runnerObservations({ create: l.create, tradesAnyOrder: l.trades, graduatedAt: null, horizonAt });
  await createRunnerNowStore(bed.t.db).insertObservations(
    [{ mint: l.create.mint, labelVersion: labelled.outcome.labelVersion, resolvedAt: horizonAt, rows }],
    source,
  );
}

describe('base rates projection (Temporal) → GET /api/base_rates', () => {
  it('answers 503 before the first projection, then the counts by band over the window, cacheable', async () => {
    expect((await http.GET('/api/base_rates')).response.status).toBe(503);
    const created = Date.now() - 2 * DAY;
    // A live runner: 33 SOL at 10 s, 70 SOL at 10 min: (70/33)² ≈ 4.5× after the 10 s point.
    await resolved(
      'live',
      launch('Run', created, [
        [5, 33],
        [600, 70],
        [1500, 40],
      ]),
    );
    // A seeded dud: 31 SOL from 5 s on.
    await resolved('synthetic', launch('Dud', created + 1000, [[5, 31]]));
    // Resolved before the window: not counted.
    await resolved('live', launch('Old', Date.now() - 60 * DAY, [[5, 33]]));

    const workflowId = uniqueId('base-rates');
    const result: BaseRatesResult = await w.client.workflow.execute(BASE_RATES_WORKFLOW, { taskQueue: w.taskQueue, workflowId });
    await w.maybeRecordHistory(workflowId, 'base-rates-projected');
    expect(result.launches).toBe(2);
    const r = await http.GET('/api/base_rates');
    expect(r.response.status).toBe(200);
    const b = r.data!;
    expect(b.computed_at).toBe(result.computedAt);
    expect(b.window).toMatchObject({ days: 30, launches: 2, sources: { live: 1, synthetic: 1, backfill: 0 } });
    expect(Date.parse(b.window.first_resolved_at!)).toBe(created + DAY);
    const cell = (ageS: number, vSol: number) => b.cells.find((c) => c.age_s === ageS && c.v_sol_lo <= vSol && vSol < c.v_sol_hi)!;
    expect(cell(10, 33)).toMatchObject({ launches: 1, graduated: 0, graduated_share: 0, rug_labelled: 1 });
    expect(cell(10, 33).reached.map((x) => x.launches)).toEqual([1, 0, 0]);
    expect(cell(10, 31)).toMatchObject({ launches: 1, graduated_share: 0 });
    expect(cell(10, 31).reached.map((x) => x.launches)).toEqual([0, 0, 0]);
    // At 10 min the runner stands at its peak: nothing above it afterwards.
    expect(cell(600, 70).reached.map((x) => x.launches)).toEqual([0, 0, 0]);
    expect(cell(10, 33).breakeven_grad_prob.at_lo).toBeCloseTo((32 / 115) ** 2, 12);
    const total = b.cells.filter((c) => c.age_s === 10).reduce((s, c) => s + c.launches, 0);
    expect(total).toBe(2);

    // A public, cacheable read: the same tag answers 304; a query string is a 422.
    expect(r.response.headers.get('cache-control')).toBe('public, max-age=60');
    const etag = r.response.headers.get('etag')!;
    expect((await fetch(`${bed.api.url}/api/base_rates`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    expect((await fetch(`${bed.api.url}/api/base_rates?band=1`)).status).toBe(422);
  });

  it('is kept current by a Temporal Schedule', async () => {
    const spec = scheduleSpecs(loadConfig({})).find((s) => s.scheduleId === BASE_RATES_SCHEDULE_ID)!;
    expect(spec).toBeDefined();
    const before = (await bed.t.db('base_rate_projection').first('computed_at'))?.computed_at?.getTime() ?? 0;
    const scheduleId = uniqueId('schedule:base-rates');
    await ensureSchedules(w.client, w.taskQueue, [{ ...spec, scheduleId, workflowIdPrefix: uniqueId('base-rates') }], true);
    try {
      let at = before;
      for (let i = 0; i < 100 && at === before; i++) {
        await new Promise((res) => setTimeout(res, 200));
        at = (await bed.t.db('base_rate_projection').first('computed_at'))?.computed_at?.getTime() ?? 0;
      }
      expect(at).toBeGreaterThan(before);
    } finally {
      await w.client.schedule.getHandle(scheduleId).delete();
    }
  });
});
