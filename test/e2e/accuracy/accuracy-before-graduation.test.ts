import { accuracyActivities } from '../../../activities/accuracy';
import { createAccuracyStore } from '../../../db/accuracy/accuracy-store';
import { createCorpusStore } from '../../../db/mint/corpus-store';
import { createLaunchEventStore } from '../../../db/mint/launch-event-store';
import { auprc, logLoss } from '../../../domain/accuracy/forward-metrics';
import { LABEL_VERSION, RUG_LABEL_VERSION } from '../../../domain/launch/outcome-labels';
import { areaContext } from '../../support/area-context';
import { call, useApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { seedResolvedPredictions } from '../../support/scored-market';

/**
 * Rows scored at or after their mint's graduation (logged before the lifecycle refused them, or scored before the
 * graduation was ingested) never count: not in forward accuracy, the headline, the inline calibration cells or the
 * corpus. The cut is the graduation time, not the 24 h resolution time every one of these rows precedes.
 */
const now = new Date('2026-11-20T12:00:00Z');
const { t, api } = useApi({ now: () => now });

type Row = { id: number; mint: string; age_bucket: number; as_of: Date; graduated: boolean; grad_prob: number; model_version: string };

let rows: Row[];
/** Prediction ids scored at or after graduation. */
const after = new Set<number>();

beforeAll(async () => {
  await seedResolvedPredictions(t.db, now, 240);
  rows = await t
    .db('predictions as p')
    .join('prediction_outcomes as o', 'o.prediction_id', 'p.id')
    .select('p.id', 'p.mint', 'p.age_bucket', 'p.as_of', 'o.graduated', 'p.grad_prob', 'p.model_version')
    .orderBy('p.id');
  // Half the graduates completed 45 s after creation (their 60 s row is after it), a quarter 10 s after (both rows).
  const graduates = [...new Set(rows.filter((r) => r.graduated).map((r) => r.mint))];
  const store = createLaunchEventStore(t.db);
  for (const [i, mint] of graduates.entries()) {
    if (i % 4 >= 3) continue;
    const created = rows.find((r) => r.mint === mint && r.age_bucket === 30)!.as_of.getTime() - 30_000;
    const at = new Date(created + (i % 4 === 2 ? 10_000 : 45_000));
    await store.writeBatch([{ kind: 'complete', signature: `${mint.slice(0, 40)}C`.padEnd(88, 'z'), ordinal: 0, slot: 5000 + i, at, source: 'test', mint }]);
    for (const r of rows.filter((x) => x.mint === mint && x.as_of.getTime() >= at.getTime())) after.add(r.id);
  }
  expect(after.size).toBeGreaterThan(20);
}, 120_000);

describe('accuracy counts only rows taken before graduation', () => {
  it('leaves them out of the forward predictions and the headline calls', async () => {
    const store = createAccuracyStore(t.db);
    const forward = await store.forwardPredictions(new Date(0), LABEL_VERSION, RUG_LABEL_VERSION);
    const expected = rows.filter((r) => !after.has(r.id));
    expect(forward).toHaveLength(expected.length);
    const key = (x: { mint: string; ageBucket?: number; age_bucket?: number }) => `${x.mint}:${x.ageBucket ?? x.age_bucket}`;
    expect(new Set(forward.map(key))).toEqual(new Set(expected.map(key)));

    const calls = await store.headlineCalls(new Date(0), 0.5, LABEL_VERSION);
    const firstCall = new Map<string, Row>();
    for (const r of expected.filter((x) => x.grad_prob >= 0.5).sort((a, b) => a.age_bucket - b.age_bucket))
      if (!firstCall.has(r.mint)) firstCall.set(r.mint, r);
    expect(calls.map((c) => c.mint).sort()).toEqual([...firstCall.keys()].sort());
  });

  it('leaves them out of the calibration cells and the corpus the models learn from', async () => {
    const corpus = createCorpusStore(t.db);
    for (const age of [30, 60] as const) {
      const kept = rows.filter((r) => r.age_bucket === age && !after.has(r.id));
      const cells = await corpus.forwardCells(age, 'knn-v1');
      expect(cells.reduce((s, c) => s + c.n, 0)).toBe(kept.length);
      expect(cells.reduce((s, c) => s + c.graduated, 0)).toBe(kept.filter((r) => r.graduated).length);
      // Cells are per serving family: none of these rows is of another.
      expect((await corpus.forwardCells(age, 'knn-v1+synthetic')).every((c) => c.n === 0)).toBe(true);
      const modelRows = await corpus.modelCorpus(age, LABEL_VERSION, RUG_LABEL_VERSION, 10_000);
      expect(modelRows.map((r) => r.mint).sort()).toEqual(kept.map((r) => r.mint).sort());
    }
  });

  it('publishes AUPRC, log loss, the base rate beside every precision, and lift within virtual-SOL bands', async () => {
    await accuracyActivities.create(areaContext(t.db, { now: () => now })).recomputeAccuracy();
    const r = await call(`${api.url}/api/accuracy`);
    expect(r.status).toBe(200);
    expectConforms('get', '/api/accuracy', 200, r.body);
    const kept = rows.filter((x) => !after.has(x.id));
    const scored = kept.map((x) => ({ prob: x.grad_prob, label: x.graduated }));
    const family = r.body.grad_prob[0];
    expect(family).toMatchObject({ model_version: 'knn-v1', n: kept.length });
    expect(family.auprc).toBeCloseTo(auprc(scored)!, 12);
    expect(family.log_loss).toBeCloseTo(logLoss(scored)!, 12);
    const base = kept.filter((x) => x.graduated).length / kept.length;
    expect(family.base_rate).toBeCloseTo(base, 12);
    for (const b of family.threshold_bands) {
      expect(b.base_rate).toBeCloseTo(base, 12);
      if (b.precision !== null) expect(b.lift).toBeCloseTo(b.precision / base, 12);
    }
    // Every kept row falls in exactly one band of its age, and each band's base rate is its own graduates' share.
    for (const { age_bucket, bands } of family.lift_by_vsol) {
      const atAge = kept.filter((x) => x.age_bucket === age_bucket);
      expect(bands.reduce((s: number, b: { n: number }) => s + b.n, 0)).toBe(atAge.length);
      for (const b of bands) if (b.n > 0) expect(b.base_rate).toBeCloseTo(b.graduated / b.n, 12);
    }
    expect(r.body.headline.last_30d.base_rate_n_mints).toBe(new Set(kept.map((x) => x.mint)).size);
  });
});
