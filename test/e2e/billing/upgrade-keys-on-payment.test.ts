import { createPaymentIntentStore } from '../../../db/billing/payment-intent-store';
import { createPlanActivation } from '../../../db/billing/plan-activation';
import { createPlanKeys } from '../../../db/billing/plan-keys';
import { writeEmptyLiveSnapshots } from '../../support/access-fixtures';
import { issueTestKey } from '../../support/access-keys';
import { afterBeta, useApi } from '../../support/api-harness';
import { typedApi, validationError } from '../../support/typed-api';
import type { Schemas } from '../../../clients/api/api-client';
import { randomAddress } from '../../fakes/solana-treasury-ledger';

/**
 * Free issuance is closed (spec sections 4, 5): the key /api/upgrade mints is shown once, in its response, and
 * works only once its intent is paid. (test/workflow/billing/payment-intent.workflow.test.ts runs the same through the
 * treasury and the payment workflow.)
 */
const TREASURY = randomAddress();

const { t, api } = useApi(async (db) => {
  await writeEmptyLiveSnapshots(db, new Date());
  // After the beta window, with the production key cache (5 s).
  return { env: { ...afterBeta({ keyCacheTtlMs: 5000 }), TREASURY_ADDRESS: TREASURY } };
});

const http = typedApi(() => api.url);
/** The spec lets defaulted fields be left out; openapi-typescript types them as required (defaultNonNullable). */
const upgrade = async (body: Partial<Schemas['UpgradeRequest']>) => {
  const r = await http.POST('/api/upgrade', { body: body as Schemas['UpgradeRequest'] });
  return { status: r.response.status, body: r.data!, error: r.error };
};
/** The API with `key` sent as `Authorization: Bearer`. */
const asKey = (key: string) => typedApi(api.url, { bearer: () => key });

/** What the payment workflow does once the treasury shows the payment: record it as paid, then activate. */
async function payAndActivate(memo: string, signature: string) {
  const now = new Date();
  await createPaymentIntentStore(t.db).recordDecision(
    memo,
    'sol',
    {
      status: 'paid',
      receivedUnits: 1n,
      countedUnits: 1n,
      shortfallUnits: 0n,
      excessUnits: 0n,
      completedBy: signature,
      counted: [signature],
      afterCompletion: [],
      late: [],
    },
    'paid',
    now,
  );
  return createPlanActivation(t.db, { planKeys: createPlanKeys, burnShareBps: 0 }).activate(memo, now);
}

async function expectNotActive(key: string, memo: string) {
  const c = asKey(key);
  for (const [path, ask] of [
    ['/api/v1/live', () => c.GET('/api/v1/live')],
    ['/api/me', () => c.GET('/api/me')],
    ['/api/v1/stats', () => c.GET('/api/v1/stats')],
  ] as const) {
    const r = await ask();
    const body = r.error as { error: string; status_url?: string; message: string };
    expect([path, r.response.status, body.error]).toEqual([path, 401, 'key_not_active']);
    expect(body.status_url).toBe(`/api/upgrade/${memo}`);
    expect(body.message).toContain(`/api/upgrade/${memo}`);
    expect(JSON.stringify(body)).not.toContain(key);
  }
}

describe('a key minted by /api/upgrade', () => {
  it('is refused with 401 key_not_active until its intent is paid, then works within about a second', async () => {
    const r = await upgrade({ tier: 'builder' });
    expect(r.status).toBe(200);
    const key = r.body.api_key!;
    expect(key.startsWith(`${r.body.key_prefix}_`)).toBe(true);
    await expectNotActive(key, r.body.memo);
    expect(await t.db('api_key_daily_usage').count({ n: '*' }).first()).toEqual({ n: 0 }); // refused calls are not counted

    await payAndActivate(r.body.memo, '5'.repeat(88));
    // The refusal was cached for at most a second, not for the 5 s key cache.
    const paidAt = Date.now();
    let me = await asKey(key).GET('/api/me');
    while (me.response.status === 401 && Date.now() - paidAt < 3000) {
      await new Promise((res) => setTimeout(res, 100));
      me = await asKey(key).GET('/api/me');
    }
    expect(me.response.status).toBe(200);
    expect(Date.now() - paidAt).toBeLessThan(1500);
    expect(me.data).toMatchObject({ key_prefix: r.body.key_prefix, tier: 'builder', plan: 'monthly' });
    expect((await asKey(key).GET('/api/v1/stats')).response.status).toBe(200);
  });

  it('stays refused after its intent expired unpaid, and a new intent naming it activates it when paid', async () => {
    const first = await upgrade({ tier: 'pro' });
    expect(first.status).toBe(200);
    const key = first.body.api_key!;
    await t
      .db('payment_intents')
      .where({ memo: first.body.memo })
      .update({ status: 'expired', expires_at: new Date(Date.now() - 1000) });
    await expectNotActive(key, first.body.memo);

    const renewal = await upgrade({ tier: 'pro', key });
    expect(renewal.status).toBe(200);
    expect(renewal.body).toMatchObject({ api_key: null, key_prefix: first.body.key_prefix });
    await expectNotActive(key, first.body.memo); // a new unpaid intent changes nothing
    await payAndActivate(renewal.body.memo, '6'.repeat(88));
    await new Promise((res) => setTimeout(res, 1100));
    expect((await asKey(key).GET('/api/v1/live')).response.status).toBe(200);
  });

  it('a hundred unpaid intents give a hundred keys that open nothing', async () => {
    const created = await Promise.all(Array.from({ length: 100 }, () => upgrade({})));
    expect(created.map((r) => r.status)).toEqual(Array(100).fill(200));
    const answers = await Promise.all(created.map((r) => asKey(r.body.api_key!).GET('/api/v1/live')));
    expect(answers.map((a) => a.response.status)).toEqual(Array(100).fill(401));
  });

  it('a supplied key that already works keeps working while its renewal is unpaid', async () => {
    const k = await issueTestKey(t.db, 'builder');
    const r = await upgrade({ key: k.plaintext, tier: 'pro' });
    expect(r.status).toBe(200);
    expect((await asKey(k.plaintext).GET('/api/v1/stats')).response.status).toBe(200);
  });
});

describe('body.key is a secret: no error repeats it', () => {
  it('answers 422 on body.key without the key, whatever shape the wrong value has', async () => {
    const k = await issueTestKey(t.db, 'builder');
    const real = k.plaintext;
    // `key` is typed unknown (the service checks it, so no error repeats it): every shape goes through the client.
    const bodies: { key: unknown }[] = [
      { key: `${real}x` },
      { key: `${real}${'x'.repeat(200)}` },
      { key: real.slice(0, 12) },
      { key: ` ${real}` },
      { key: [real] },
      { key: { key: real } },
      { key: 42 },
      { key: null },
      { key: '' },
    ];
    for (const b of bodies) {
      const r = await upgrade(b);
      expect([b, r.status]).toEqual([b, 422]);
      expect(validationError(r.error).detail).toEqual([{ loc: ['body', 'key'], msg: expect.any(String), type: expect.any(String) }]);
      const text = JSON.stringify(r.error);
      expect(text).not.toContain(real);
      expect(text).not.toContain(real.split('_').pop());
    }
  });
});
