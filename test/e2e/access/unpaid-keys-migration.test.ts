import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDb } from '../../../platform/db';
import { readTestEnv } from '../../support/test-env';
import { asDb, type KnexDb } from '../../../db/knex-handle';

/**
 * Keys handed out free by unpaid intents before the fix stop working when the migration runs: every key minted by
 * /api/upgrade that never received a plan grant waits for its intent's payment; paid and other keys are untouched.
 */
const MIGRATIONS = { directory: path.resolve(__dirname, '../../../db/migrations'), loadExtensions: ['.ts'] };
const KEYS_ON_PAYMENT = '20261124_0010_keys_on_payment.ts';
let db: KnexDb;
let name: string;

beforeAll(async () => {
  const env = readTestEnv();
  name = `${env.dbPrefix}${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: env.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const u = new URL(env.adminUrl);
  u.pathname = `/${name}`;
  db = asDb(createDb(u.toString(), 2));
  // Every migration before this one, as a deployment that ran the old code has them.
  const [, pending] = (await db.migrate.list(MIGRATIONS)) as [unknown[], { file: string }[]];
  for (const m of pending.map((p) => p.file).sort()) {
    if (m >= KEYS_ON_PAYMENT) break;
    await db.migrate.up({ ...MIGRATIONS, name: m });
  }
});
afterAll(async () => {
  await db.destroy();
  const admin = new Client({ connectionString: readTestEnv().adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
});

async function key(prefix: string, source: string): Promise<number> {
  const [row] = await db('api_keys')
    .insert({ key_prefix: prefix, key_hash: Buffer.alloc(32, 1), source, created_at: new Date() })
    .returning('id');
  return Number(row.id);
}
async function intent(memo: string, keyId: number, keyMinted: boolean, createdAt: Date) {
  await db('payment_intents').insert({
    memo,
    tier: 'pro',
    plan: 'monthly',
    amount_lamports: 1_000_000_000,
    treasury: 'T',
    key_id: keyId,
    key_prefix: 'p',
    key_minted: keyMinted,
    created_at: createdAt,
    expires_at: createdAt,
  });
}

describe('migration 0010 closes keys that unpaid intents handed out', () => {
  it('marks never-paid upgrade keys as awaiting their first intent, and nothing else', async () => {
    const unpaid = await key('lp_live_unpaid0000', 'upgrade');
    await intent('lp-unpaid-first', unpaid, true, new Date('2026-11-01T00:00:00Z'));
    await intent('lp-unpaid-later', unpaid, false, new Date('2026-11-02T00:00:00Z'));
    const paid = await key('lp_live_paid000000', 'upgrade');
    await intent('lp-paid', paid, true, new Date('2026-11-01T00:00:00Z'));
    await db('api_key_plan_grants').insert({ grant_id: 'payment:lp-paid', key_id: paid, tier: 'pro', plan: 'monthly', days: 30, granted_at: new Date() });
    const holder = await key('lp_live_holder0000', 'wallet_signup');
    const admin = await key('lp_live_admin00000', 'admin');

    await db.migrate.latest(MIGRATIONS);

    const rows = await db('api_keys').select('id', 'awaiting_payment_of').orderBy('id');
    expect(Object.fromEntries(rows.map((r) => [Number(r.id), r.awaiting_payment_of]))).toEqual({
      [unpaid]: 'lp-unpaid-first',
      [paid]: null,
      [holder]: null,
      [admin]: null,
    });
  });
});
