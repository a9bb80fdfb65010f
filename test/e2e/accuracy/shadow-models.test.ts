import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { accuracyActivities } from '../../../activities/accuracy';
import { logLoss } from '../../../domain/accuracy/forward-metrics';
import { areaContext } from '../../support/area-context';
import { call, useApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { seedShadowEvidence } from '../../support/shadow-fixtures';
import { ROOT } from '../../support/test-env';

/** /api/accuracy shows the champion and its challengers side by side per age, the rule by its hash, and every decision. */
const now = new Date('2026-11-20T12:30:00Z');
const { t, api } = useApi({ now: () => now });

describe('GET /api/accuracy: shadow models', () => {
  it('shows champion and challengers per age on their forward scores, and the promotion decided on them', async () => {
    await seedShadowEvidence(t.db, now, 1200);
    const acts = accuracyActivities.create(areaContext(t.db, { now: () => now, env: { MODEL_CHAMPION: 'knn-v1', MODEL_CHALLENGERS: 'knn-v1-k25' } }));
    const run = await acts.judgeShadowModels();
    expect(run.decisions).toEqual([{ challenger: 'knn-v1-k25', decision: 'promote', n: 1200, created: true }]);
    await acts.recomputeAccuracy();

    const r = await call(`${api.url}/api/accuracy`);
    expect(r.status).toBe(200);
    expectConforms('get', '/api/accuracy', 200, r.body);
    const s = r.body.shadow_models;
    const bytes = fs.readFileSync(path.join(ROOT, 'docs', 'preregistration', 'shadow-promotion-v1.md'));
    expect(s.rule).toEqual({
      id: 'shadow-promotion-v1',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      document: 'docs/preregistration/shadow-promotion-v1.md',
    });
    // Promoted: the challenger is the champion now, and the former champion is shown as a challenger.
    expect(s.champion).toBe('knn-v1-k25');
    expect(s.models.map((m: { model_name: string; role: string }) => [m.model_name, m.role])).toEqual([
      ['knn-v1-k25', 'champion'],
      ['knn-v1', 'challenger'],
    ]);
    // Each version's figures are its own forward scores, recomputed here from the rows.
    for (const [name, table, column] of [
      ['knn-v1-k25', 'shadow_predictions', 'model_name'],
      ['knn-v1', 'predictions', 'model_version'],
    ] as const) {
      for (const age of [30, 60]) {
        const rows = await t
          .db(`${table} as p`)
          .join('mint_outcomes as o', 'o.mint', 'p.mint')
          .where('p.age_bucket', age)
          .where(`p.${column}`, 'like', `${name}%`)
          .whereNot(`p.${column}`, 'like', name === 'knn-v1' ? 'knn-v1-%' : '')
          .select('p.grad_prob', 'o.graduated');
        const fig = s.models.find((m: { model_name: string }) => m.model_name === name).per_age.find((a: { age_bucket: number }) => a.age_bucket === age);
        expect(fig.n).toBe(rows.length);
        expect(fig.log_loss).toBeCloseTo(logLoss(rows.map((x) => ({ prob: x.grad_prob, label: x.graduated })))!, 12);
      }
    }
    expect(s.decisions).toHaveLength(1);
    const [d] = s.decisions;
    const stored = await t.db('model_promotions').first();
    expect(d).toMatchObject({
      id: Number(stored.id),
      champion: 'knn-v1',
      challenger: 'knn-v1-k25',
      decision: 'promote',
      n: 1200,
      evidence_sha256: stored.evidence_sha256,
    });
    expect(d.upper_bound).toBeLessThan(0);
    expect(d.per_age.map((a: { age_bucket: number; n: number }) => [a.age_bucket, a.n])).toEqual([
      [30, 1200],
      [60, 1200],
    ]);
  });
});
