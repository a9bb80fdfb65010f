import { createAlertFireStore, type NewFire } from '../../../db/alerts/alert-fire-store';
import { createAlertRuleStore } from '../../../db/alerts/alert-rule-store';
import { fireFacts } from '../../../domain/alerts/alert-evaluation';
import { asDb } from '../../../db/knex-handle';
import { issueTestKey } from '../../support/access-keys';
import { quietMintFacts } from '../../support/alert-fixtures';
import { startApi, useApi, type StartedApi } from '../../support/api-harness';
import { connectFirehose, insertScore, type FirehoseTestClient } from './firehose-test-client';

/**
 * Alert fires on the firehose, written by the alerts area's own store (an `alert_fire` outbox row per fire): a key's
 * connections get the fires of its own rules, never another key's nor the house rule's, live and on resume (from the
 * ring and from the log).
 */
const { t, api } = useApi({ env: { FIREHOSE_POLL_MS: '200' } });
const H = { holderThresholds: { signals: 500_000, api: 2_500_000 } };
const open: FirehoseTestClient[] = [];
const connect = (url: string, key: { bearer: Record<string, string> }, query: Record<string, string> = {}) => {
  const c = connectFirehose(url, { headers: key.bearer, query });
  open.push(c);
  return c;
};
afterEach(async () => {
  const done = open.splice(0);
  await Promise.all(done.map((c) => c.close()));
  expect(done.flatMap((c) => c.invalid)).toEqual([]);
});

let n = 0;
const fire = (ruleId: number, ownerKeyId: number | null): NewFire => {
  const mint = `AlertFhMint${Date.now().toString(36)}${n++}pump`;
  return {
    ruleId,
    ownerKeyId,
    kind: 'grad_prob',
    mint,
    firedAt: new Date(Math.floor(Date.now() / 1000) * 1000),
    premiumSample: false,
    priceSol: 3e-8,
    gradProb: 0.81,
    ageBucket: 60,
    facts: fireFacts(quietMintFacts({ mint, gradProb: 0.81, ageBucket: 60 })),
    text: 'fired',
  };
};

let owner: Awaited<ReturnType<typeof issueTestKey>>;
let other: Awaited<ReturnType<typeof issueTestKey>>;
let ownerRule = 0;
let otherRule = 0;
let houseRule = 0;

beforeAll(async () => {
  const rules = createAlertRuleStore(t.db, H);
  owner = await issueTestKey(t.db, 'enterprise');
  other = await issueTestKey(t.db, 'enterprise');
  const a = await rules.add(owner.id, 'grad_prob', { threshold: 0.8, wallet: null }, new Date());
  const b = await rules.add(other.id, 'grad_prob', { threshold: 0.8, wallet: null }, new Date());
  if (!a.ok || !b.ok) throw new Error('rules were refused');
  ownerRule = a.rule.id;
  otherRule = b.rule.id;
  houseRule = (await rules.ensureHouseRule('grad_prob', 0.7, new Date())).id;
});

/** Fires one rule of each owner and the house rule in one batch (one transaction), then a score everyone gets. */
async function fireAll() {
  const fires = [fire(otherRule, other.id), fire(ownerRule, owner.id), fire(houseRule, null)];
  await createAlertFireStore(t.db).record(fires);
  const mint = await insertScore(t.db);
  return { own: fires[1]!, theirs: fires[0]!, scoreMint: mint };
}

test("a key's connections get its own rules' fires as alert events, never another key's nor the house rule's", async () => {
  const mine = connect(api.url, owner);
  const theirs = connect(api.url, other);
  await Promise.all([mine.hello(), theirs.hello()]);
  const { own, theirs: theirFire, scoreMint } = await fireAll();
  const [alert, score] = await mine.eventsUntil(2);
  expect(alert).toMatchObject({
    kind: 'alert',
    data: { rule_id: ownerRule, kind: 'grad_prob', mint: own.mint, fired_at: own.firedAt.toISOString(), facts: { grad_prob: 0.81 } },
  });
  expect(alert!.data).not.toHaveProperty('owner_key_id');
  expect(score).toMatchObject({ kind: 'score', data: { mint: scoreMint } });
  // The other key got its own fire and the score: the seqs of the fires it may not see are passed over.
  const [theirAlert, theirScore] = await theirs.eventsUntil(2);
  expect(theirAlert).toMatchObject({ kind: 'alert', data: { rule_id: otherRule, mint: theirFire.mint } });
  expect(theirScore!.seq).toBe(score!.seq);
  await new Promise((r) => setTimeout(r, 300));
  expect(mine.events()).toHaveLength(2);
  expect(theirs.events()).toHaveLength(2);
});

describe('on resume, a key gets its own missed fires only', () => {
  let logOnly: StartedApi;
  beforeAll(async () => {
    // A ring of one frame: a resume there is read from the log.
    logOnly = await startApi(t.db, { env: { FIREHOSE_RING_FRAMES: '1', FIREHOSE_POLL_MS: '200' } });
  });
  afterAll(() => logOnly.close());

  test.each([
    ['from the ring', () => api.url],
    ['from the log', () => logOnly.url],
  ])('%s', async (_, url) => {
    const first = connect(url(), owner);
    const hello = await first.hello();
    // A live event first, so the other process's reader is started and past the fires when it resumes us.
    await insertScore(t.db);
    await first.eventsUntil(1);
    await first.close();
    const { own, scoreMint } = await fireAll();
    await insertScore(t.db);
    for (const key of [owner, other]) {
      const resumed = connect(url(), key, { since: String(hello.seq) });
      const events = await resumed.eventsUntil(4);
      const alerts = events.filter((e) => e.kind === 'alert');
      expect(alerts).toHaveLength(1);
      expect(alerts[0]!.data.rule_id).toBe(key === owner ? ownerRule : otherRule);
      if (key === owner) expect(alerts[0]!.data.mint).toBe(own.mint);
      expect(events.filter((e) => e.kind === 'score').map((e) => e.data.mint)).toContain(scoreMint);
      const seqs = events.map((e) => e.seq!);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    }
  });
});

test('a fire in a transaction that rolls back is never sent', async () => {
  const mine = connect(api.url, owner);
  await mine.hello();
  const f = fire(ownerRule, owner.id);
  await t.db
    .transaction(async (trx) => {
      await createAlertFireStore(asDb(trx)).record([f]);
      throw new Error('rolled back');
    })
    .catch(() => undefined);
  const mint = await insertScore(t.db);
  const [e] = await mine.eventsUntil(1);
  expect(e).toMatchObject({ kind: 'score', data: { mint } });
  await new Promise((r) => setTimeout(r, 300));
  expect(mine.events()).toHaveLength(1);
});
