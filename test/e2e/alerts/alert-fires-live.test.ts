import { createAlertRuleStore } from '../../../db/alerts/alert-rule-store';
import { createBotChatStore } from '../../../db/alerts/bot-chat-store';
import { ALERT_KINDS, type AlertKind } from '../../../domain/alerts/alert-kinds';
import { issueTestKey } from '../../support/access-keys';
import { alertMarket, simulatedScore } from '../../support/alert-market';
import { createTestDatabase } from '../../support/test-db';

/**
 * Every rule kind fires from simulated launches, end to end through the production hook: the live projector's
 * refresh (live area) evaluates the rules over the mints it holds. Each fire is a durable row with its `alert_fire`
 * outbox event and a queued bot message per linked chat, written together; a rule fires once per mint, across a
 * restart of the process too; mayhem mints never fire; a Free owner's premium rule fires once (the 24 h sample).
 */
const SEED = 11;
const START = Math.floor(Date.now() / 1000) * 1000 - 6 * 60_000;
const END = START + 5 * 60_000;
const H = { holderThresholds: { signals: 500_000, api: 2_500_000 } };
let t: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

describe('alert rules on a simulated market', () => {
  it('fires every kind where its condition holds, once per rule and mint, with its outbox event and bot message', async () => {
    const market = alertMarket(t.db, { seed: SEED, start: START, minutes: 4 });
    const live = market.creates.filter((c) => !c.mayhem && c.at.getTime() < END - 70_000);
    const runnerCreator = live[3]!.creator;
    const mayhemMints = new Set(market.creates.filter((c) => c.mayhem).map((c) => c.mint));
    // A wallet that buys a later non-mayhem mint, and one that buys only mayhem mints (if the run has one).
    const watched = market.buys.find((b) => !mayhemMints.has(b.mint) && b.at.getTime() > START + 60_000 && b.at.getTime() < END - 60_000)!.trader;
    await market.seed(runnerCreator);

    const rules = createAlertRuleStore(t.db, H);
    const chats = createBotChatStore(t.db);
    const pro = await issueTestKey(t.db, 'pro');
    const free = await issueTestKey(t.db, 'free');
    const now = new Date(START);
    await chats.link(1001, pro.id, now);
    await chats.link(1002, pro.id, now);
    await chats.link(2001, free.id, now);
    const params: Record<AlertKind, { threshold: number; wallet: string | null }> = {
      grad_prob: { threshold: 0.7, wallet: null },
      vsol_burst: { threshold: 3, wallet: null },
      runner_dev: { threshold: 0.5, wallet: null },
      smart_in: { threshold: 1, wallet: null },
      runner_5x: { threshold: 0.4, wallet: null },
      runner_10x: { threshold: 0.15, wallet: null },
      wallet: { threshold: 0, wallet: watched },
    };
    const ruleIds = new Map<number, AlertKind>();
    for (const kind of ALERT_KINDS) {
      const r = await rules.add(pro.id, kind, params[kind], now);
      if (!r.ok) throw new Error(r.reason);
      ruleIds.set(r.rule.id, kind);
    }
    const freeBasic = await rules.add(free.id, 'grad_prob', { threshold: 0.4, wallet: null }, now);
    const freePremium = await rules.add(free.id, 'smart_in', { threshold: 1, wallet: null }, now);
    expect(freeBasic.ok && freePremium.ok).toBe(true);
    expect(await rules.add(free.id, 'vsol_burst', { threshold: 1, wallet: null }, now)).toMatchObject({ ok: false, tier: 'free' });
    const house = await rules.ensureHouseRule('grad_prob', 0.7, now);

    await market.run(END, { restartAtStep: 80 });

    const fires = await t.db('alert_fires').orderBy('id');
    const byRule = (id: number) => fires.filter((f) => Number(f.rule_id) === id);
    // Each kind of the Pro owner fired, and only where its condition held.
    for (const [id, kind] of ruleIds) {
      const mine = byRule(id);
      expect({ kind, fired: mine.length > 0 }).toEqual({ kind, fired: true });
      for (const f of mine) {
        const s = simulatedScore(SEED, f.mint);
        if (kind === 'grad_prob') expect(f.grad_prob).toBeGreaterThanOrEqual(0.7);
        if (kind === 'runner_5x') expect(s.runner5x).toBeGreaterThanOrEqual(0.4);
        if (kind === 'runner_10x') expect(s.runner10x).toBeGreaterThanOrEqual(0.15);
        if (kind === 'vsol_burst') expect(f.facts.v_sol_added_60s).toBeGreaterThanOrEqual(3);
        if (kind === 'smart_in') expect(f.facts.smart_money_in).toBeGreaterThanOrEqual(1);
        if (kind === 'runner_dev') expect(market.creates.find((c) => c.mint === f.mint)!.creator).toBe(runnerCreator);
        if (kind === 'wallet') expect(market.buys.some((b) => b.mint === f.mint && b.trader === watched)).toBe(true);
      }
    }
    // The grad_prob rule missed nothing: every mint scored 0.8 at 60 s while tracked fired it.
    const expectedGrad = market.creates
      .filter((c) => !c.mayhem)
      .filter((c) => simulatedScore(SEED, c.mint).gradProb >= 0.7 && c.at.getTime() + 62_000 <= END)
      .map((c) => c.mint);
    const gradRule = [...ruleIds].find(([, k]) => k === 'grad_prob')![0];
    expect(new Set(byRule(gradRule).map((f) => f.mint))).toEqual(new Set(expectedGrad));
    expect(new Set(byRule(house.id).map((f) => f.mint))).toEqual(new Set(expectedGrad));
    // Once per rule and mint (the restart at step 80 reloaded what fired), never on a mayhem mint.
    expect(new Set(fires.map((f) => `${f.rule_id}:${f.mint}`)).size).toBe(fires.length);
    expect(fires.filter((f) => mayhemMints.has(f.mint))).toEqual([]);
    // The Free owner: its basic rule fires freely, its premium rule once in 24 h, as the sample.
    expect(byRule(freeBasic.ok ? freeBasic.rule.id : 0).length).toBeGreaterThan(1);
    const samples = byRule(freePremium.ok ? freePremium.rule.id : 0);
    expect(samples.map((f) => f.premium_sample)).toEqual([true]);

    // One outbox event per fire, in the webhooks contract's shape.
    const outbox = await t.db('event_outbox').where({ kind: 'alert_fire' }).orderBy('id');
    expect(outbox.map((e) => e.event_key)).toEqual(fires.map((f) => `alert:${f.id}`));
    const first = fires.find((f) => Number(f.rule_id) === gradRule)!;
    expect(outbox.find((e) => e.event_key === `alert:${first.id}`)!.payload).toEqual({
      fire_id: Number(first.id),
      rule_id: gradRule,
      owner_key_id: pro.id,
      kind: 'grad_prob',
      mint: first.mint,
      fired_at: first.fired_at.toISOString(),
      facts: expect.objectContaining({
        grad_prob: first.grad_prob,
        calibration: expect.objectContaining({ historical_actual_rate: 0.55 }),
        multiple: expect.any(Number),
        market_cap_usd: expect.any(Number),
        rug_flags: expect.any(Array),
      }),
    });
    // A queued message per fire and linked chat (two chats for Pro, one for Free, none for the house rule).
    const sends = await t.db('bot_sends').orderBy('id');
    const ownerFires = fires.filter((f) => f.owner_key_id !== null);
    const expectedSends = ownerFires.reduce((n, f) => n + (Number(f.owner_key_id) === pro.id ? 2 : 1), 0);
    expect(sends.length).toBe(expectedSends);
    const msg = sends.find((s) => s.dedupe_key === `fire:${first.id}:1001`)!;
    expect(msg.text).toContain(first.mint);
    expect(msg.text).toMatch(/grad_prob 80% at 60 s/);
    expect(msg.text).toMatch(/calibration: cell 60 s × \[0\.5, 0\.7\): 55% graduated \(n=120\)/);
    expect(msg.text).toContain(`/api/v1/probe/${first.mint}`);
  }, 300_000);
});
