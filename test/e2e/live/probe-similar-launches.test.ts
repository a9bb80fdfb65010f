import { issueTestKey } from '../../support/access-keys';
import { useApi } from '../../support/api-harness';
import { seedScoredMarket } from '../../support/scored-market';
import { keyedApi } from '../../support/typed-api';

const now = new Date(Math.floor(Date.now() / 1000) * 1000);
const { t, api } = useApi({ now: () => now });
let key: { plaintext: string } | undefined;
const http = keyedApi(
  () => api.url,
  () => key,
);

/**
 * The probe's similar launches through HTTP, over a simulated market scored by the real scorer (its models refitted on
 * the resolved older mints): each live mint's latest score carries the serving model's nearest launches resolved
 * before it, with their outcomes as the database holds them, versioned with the score's model.
 */
describe('GET /api/v1/probe/{mint}: similar launches', () => {
  let live: string[] = [];
  beforeAll(async () => {
    const seeded = await seedScoredMarket(t.db, now);
    live = seeded.live.map((c) => c.mint);
    key = await issueTestKey(t.db, 'pro');
  }, 240_000);

  it('shows the latest score’s nearest resolved launches, none resolved after the score, with what each did', async () => {
    const scored: { mint: string; id: number; predicted_at: Date; model_version: string }[] = await t
      .db('predictions')
      .whereIn('mint', live)
      .whereNotNull('similar_launches')
      .orderBy([{ column: 'mint' }, { column: 'predicted_at', order: 'desc' }])
      .distinctOn('mint')
      .select('mint', 'id', 'predicted_at', 'model_version');
    expect(scored.length).toBeGreaterThan(0);
    let shown = 0;
    for (const p of scored.slice(0, 5)) {
      const r = await http.GET('/api/v1/probe/{mint}', { params: { path: { mint: p.mint } } });
      expect(r.response.status).toBe(200);
      const s = r.data!.similar_launches!;
      expect(s).toMatchObject({ prediction_id: p.id, model_version: p.model_version, max_launches: 10 });
      expect(p.model_version.startsWith(s.model_name.replace(/(\+[a-z]+)+$/, ''))).toBe(true);
      expect(Date.parse(s.resolved_before)).toBeLessThanOrEqual(p.predicted_at.getTime());
      expect(s.launches.length).toBeLessThanOrEqual(10);
      const distances = s.launches.map((l) => l.distance);
      expect(distances).toEqual([...distances].sort((a, b) => a - b));
      for (const l of s.launches) {
        expect(Date.parse(l.resolved_at)).toBeLessThan(Date.parse(s.resolved_before));
        // What it did is what the database resolved it to.
        const o = await t.db('mint_outcomes').where({ mint: l.mint }).first('graduated', 'resolved_at');
        expect(o).toBeDefined();
        expect(l.graduated).toBe(o.graduated);
        expect(l.age_s).toBe(s.age_bucket);
        expect(l.matched_features.length).toBeGreaterThan(0);
      }
      shown += s.launches.length;
    }
    expect(shown).toBeGreaterThan(0);
  });

  it('answers null evidence for a mint scored before evidence was logged, and 404 for a mint never seen', async () => {
    const [p] = await t.db('predictions').whereIn('mint', live).orderBy('id').limit(1).select('id', 'mint');
    const logged = await t.db('predictions').where({ mint: p.mint }).select('id', 'similar_launches');
    // Seal-free: these predictions' hours are not committed, so the column can be cleared as an older row would lack it.
    await t.db('predictions').where({ mint: p.mint }).update({ similar_launches: null });
    const r = await http.GET('/api/v1/probe/{mint}', { params: { path: { mint: p.mint } } });
    expect(r.response.status).toBe(200);
    expect(r.data!.similar_launches).toBeNull();
    for (const x of logged) await t.db('predictions').where({ id: x.id }).update({ similar_launches: x.similar_launches });
    const missing = await http.GET('/api/v1/probe/{mint}', { params: { path: { mint: '11111111111111111111111111111111' } } });
    expect(missing.response.status).toBe(404);
  });
});
