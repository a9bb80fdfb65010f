import { createAlertFireStore, type NewFire } from '../../../db/alerts/alert-fire-store';
import { createAlertRuleStore } from '../../../db/alerts/alert-rule-store';
import { fireFacts, type MintFacts } from '../../../domain/alerts/alert-evaluation';
import { issueTestKey } from '../../support/access-keys';
import { call, useApi } from '../../support/api-harness';
import { quietMintFacts } from '../../support/alert-fixtures';
import { expectConforms } from '../../support/contract';
import { seedResolvedPredictions } from '../../support/scored-market';

/**
 * GET /api/alerts/audit through HTTP, validated against openapi.yaml: the audited rule is the service's own
 * grad_prob rule in force, whatever users add or when; a retired house rule's fires stay out; fires are joined with
 * their mint's resolved outcome (max_mult = 24 h peak over the price at the fire), nulls while unresolved.
 */
const now = new Date(Math.floor(Date.now() / 1000) * 1000);
const HOUR = 3_600_000;
const { t, api } = useApi({ now: () => now });
const H = { holderThresholds: { signals: 500_000, api: 2_500_000 } };

const facts = (mint: string, gradProb: number): MintFacts => quietMintFacts({ mint, gradProb, ageBucket: 60 });
const fire = (ruleId: number, ownerKeyId: number | null, mint: string, firedAt: Date, gradProb: number): NewFire => ({
  ruleId,
  ownerKeyId,
  kind: 'grad_prob',
  mint,
  firedAt,
  premiumSample: false,
  priceSol: 3e-8,
  gradProb,
  ageBucket: 60,
  facts: fireFacts(facts(mint, gradProb)),
  text: 'x',
});

let mints: string[] = [];
let houseId = 0;

describe('GET /api/alerts/audit', () => {
  it('answers no rule and no fires before the worker has put the audited rule in force', async () => {
    const r = await call(`${api.url}/api/alerts/audit`);
    expect(r.status).toBe(200);
    expectConforms('get', '/api/alerts/audit', 200, r.body);
    expect(r.body).toEqual({ hours: 24, rule: null, count: 0, fires: [] });
  });

  it("reports the house rule's fires only, newest first, joined with outcomes", async () => {
    ({ mints } = await seedResolvedPredictions(t.db, now, 6));
    const unresolved = mints[5]!;
    await t
      .db('prediction_outcomes')
      .whereIn('prediction_id', t.db('predictions').where({ mint: unresolved }).select('id'))
      .delete();
    await t.db('mint_outcomes').where({ mint: unresolved }).delete();
    const rules = createAlertRuleStore(t.db, H);
    const fires = createAlertFireStore(t.db);
    // An earlier house rule at 0.6, retired when the threshold moved to 0.7.
    const old = await rules.ensureHouseRule('grad_prob', 0.6, new Date(now.getTime() - 50 * HOUR));
    await fires.record([fire(old.id, null, mints[0]!, new Date(now.getTime() - 45 * HOUR), 0.65)]);
    const house = await rules.ensureHouseRule('grad_prob', 0.7, new Date(now.getTime() - 40 * HOUR));
    houseId = house.id;
    expect(house.id).not.toBe(old.id);
    expect((await rules.ensureHouseRule('grad_prob', 0.7, now)).id).toBe(house.id);
    // Users' grad_prob rules, one added after the house rule: neither is "the active rule".
    const a = await issueTestKey(t.db, 'pro');
    const b = await issueTestKey(t.db, 'builder');
    const ra = await rules.add(a.id, 'grad_prob', { threshold: 0.5, wallet: null }, new Date(now.getTime() - 9 * HOUR));
    const rb = await rules.add(b.id, 'grad_prob', { threshold: 0.9, wallet: null }, new Date(now.getTime() - HOUR));
    if (!ra.ok || !rb.ok) throw new Error('rules');
    await fires.record([
      fire(house.id, null, mints[1]!, new Date(now.getTime() - 30 * HOUR), 0.8), // outside 24 h
      fire(house.id, null, mints[2]!, new Date(now.getTime() - 5 * HOUR), 0.75),
      fire(house.id, null, mints[3]!, new Date(now.getTime() - 2 * HOUR), 0.9),
      fire(house.id, null, unresolved, new Date(now.getTime() - HOUR), 0.71),
      fire(ra.rule.id, a.id, mints[4]!, new Date(now.getTime() - 3 * HOUR), 0.55),
      fire(rb.rule.id, b.id, mints[3]!, new Date(now.getTime() - 2 * HOUR), 0.9),
    ]);

    const r = await call(`${api.url}/api/alerts/audit`);
    expect(r.status).toBe(200);
    expectConforms('get', '/api/alerts/audit', 200, r.body);
    expect(r.body.rule).toEqual({
      rule_id: house.id,
      kind: 'grad_prob',
      threshold: 0.7,
      version: 'alerts-v1',
      active_since: new Date(now.getTime() - 40 * HOUR).toISOString(),
    });
    expect(r.body.fires.map((f: { mint: string }) => f.mint)).toEqual([unresolved, mints[3], mints[2]]);
    expect(r.body.count).toBe(3);
    expect(r.body.fires[0]).toMatchObject({ grad_prob: 0.71, age_bucket: 60, max_mult: null, did_graduate: null, resolved_at: null });
    for (const f of r.body.fires.slice(1)) {
      const o = await t.db('mint_outcomes').where({ mint: f.mint }).first();
      expect(f.did_graduate).toBe(o.graduated);
      expect(f.resolved_at).toBe(o.resolved_at.toISOString());
      expect(f.max_mult).toBeCloseTo(o.peak_price_sol_24h / 3e-8, 5);
    }
  });

  it('hours and limit bound the answer; bad values are the spec 422', async () => {
    const r = await call(`${api.url}/api/alerts/audit?hours=48&limit=2`);
    expectConforms('get', '/api/alerts/audit', 200, r.body);
    expect(r.body).toMatchObject({ hours: 48, count: 2 });
    expect(r.body.rule.rule_id).toBe(houseId);
    const wide = await call(`${api.url}/api/alerts/audit?hours=48`);
    // 48 h reaches the fire 30 h ago but never the retired rule's.
    expect(wide.body.fires.map((f: { mint: string }) => f.mint)).toEqual([mints[5], mints[3], mints[2], mints[1]]);
    // No upper bounds (the spec gives none): test/e2e/http/unbounded-inputs.test.ts.
    for (const q of ['hours=0', 'limit=0', 'hours=1.5', 'limit=-1']) {
      const bad = await call(`${api.url}/api/alerts/audit?${q}`);
      expect(bad.status).toBe(422);
      expectConforms('get', '/api/alerts/audit', 422, bad.body);
    }
  });
});
