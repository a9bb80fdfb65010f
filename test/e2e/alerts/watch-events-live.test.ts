import { createBotChatStore } from '../../../db/alerts/bot-chat-store';
import { createWatchlistStore } from '../../../db/alerts/watchlist-store';
import { issueTestKey } from '../../support/access-keys';
import { alertMarket } from '../../support/alert-market';
import { createTestDatabase } from '../../support/test-db';

/**
 * Watched mints tell their watchers through the live projector's refresh (the production hook): graduation and each
 * rug flag that turns triggered, once per (watch, event) across a restart of the process, as a queued bot message per
 * linked chat; nothing for unwatched mints; an owner over its tier's watchlist size (after a downgrade) hears only
 * of its oldest watches within the limit.
 */
const START = Math.floor(Date.now() / 1000) * 1000 - 6 * 60_000;
const END = START + 5 * 60_000;
let t: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

describe('watched mints', () => {
  it('send graduation and new rug flags once per watch and event, within the tier', async () => {
    // The first seed whose market has a non-mayhem mint graduating within the live window (a few in ten have one).
    const pick = (seed: number) => {
      const market = alertMarket(t.db, { seed, start: START, minutes: 4 });
      const live = market.creates.filter((c) => !c.mayhem && c.at.getTime() < END - 90_000);
      const completes = new Map(market.events.filter((e) => e.kind === 'complete').map((e) => [e.mint, e.at.getTime()]));
      return { market, live, grad: live.find((c) => (completes.get(c.mint) ?? Infinity) < Math.min(END - 10_000, c.at.getTime() + 280_000)) };
    };
    const { market, live, grad } = [13, 12, 14, 15, 16, 17, 18, 19, 20, 22, 23, 24].map(pick).find((p) => p.grad) ?? pick(0);
    expect(grad).toBeDefined();
    await market.seed(live[3]!.creator);

    const pro = await issueTestKey(t.db, 'pro');
    const lapsed = await issueTestKey(t.db, 'free');
    const chats = createBotChatStore(t.db);
    const now = new Date(START);
    await chats.link(3001, pro.id, now);
    await chats.link(3002, lapsed.id, now);
    const watched = [grad!, ...live.filter((c) => c !== grad).slice(0, 11)].map((c) => c.mint);
    const watchlist = createWatchlistStore(t.db, { holderThresholds: { signals: 500_000, api: 2_500_000 } });
    for (const m of watched) expect(await watchlist.add(pro.id, m, now)).toMatchObject({ ok: true });
    // A Free key holding seven watches (left from a paid plan): its two newest, grad among them, are not in force.
    const inForce = watched.slice(2, 7);
    const overLimit = [watched[0]!, watched[1]!];
    await t
      .db('alert_watchlist')
      .insert([
        ...inForce.map((m, k) => ({ owner_key_id: lapsed.id, mint: m, added_at: new Date(START + k) })),
        ...overLimit.map((m, k) => ({ owner_key_id: lapsed.id, mint: m, added_at: new Date(START + 100 + k) })),
      ]);

    await market.run(END, { restartAtStep: 70 });

    const events = await t.db('alert_watch_events').orderBy(['owner_key_id', 'mint', 'event']);
    const of = (owner: number) => events.filter((e) => Number(e.owner_key_id) === owner);
    expect(of(pro.id)).toContainEqual(expect.objectContaining({ mint: grad!.mint, event: 'graduated' }));
    expect(of(pro.id).filter((e) => e.event.startsWith('rug:')).length).toBeGreaterThan(0);
    for (const e of events) expect(e.event).toMatch(/^(graduated|rug:(bundle_pct|holder_concentration|fresh_wallet_first3|bundle_dump_in_progress))$/);
    // Only watched mints, and for the Free key only its five oldest watches (the same mints told the Pro key).
    expect(events.every((e) => watched.includes(e.mint))).toBe(true);
    expect(of(lapsed.id).every((e) => inForce.includes(e.mint))).toBe(true);
    expect(of(pro.id).filter((e) => overLimit.includes(e.mint)).length).toBeGreaterThan(0);
    expect(of(lapsed.id).map((e) => `${e.mint}:${e.event}`)).toEqual(
      of(pro.id)
        .filter((e) => inForce.includes(e.mint))
        .map((e) => `${e.mint}:${e.event}`),
    );

    // One queued message per (watch, event) and linked chat, across the restart at step 70.
    const sends = await t.db('bot_sends').where('dedupe_key', 'like', 'watch:%').orderBy('id');
    expect(sends.map((s) => s.dedupe_key).sort()).toEqual(
      events.map((e) => `watch:${e.owner_key_id}:${e.mint}:${e.event}:${Number(e.owner_key_id) === pro.id ? 3001 : 3002}`).sort(),
    );
    const gradMsg = sends.find((s) => s.dedupe_key === `watch:${pro.id}:${grad!.mint}:graduated:3001`)!;
    expect(gradMsg.text).toMatch(new RegExp(`^👀 watched mint ${grad!.mint}: graduated: the bonding curve is complete\nmultiple \\d+\\.\\d\\dx · market cap `));
    expect(gradMsg.text).toContain(`/api/v1/probe/${grad!.mint}`);
  }, 300_000);
});
