import { execFile } from 'node:child_process';
import path from 'node:path';
import { ledgerActivities } from '../../../activities/ledger';
import { createCompositePredictionStore } from '../../../db/signals/composite-prediction-store';
import { createSignalStore } from '../../../db/signals/signal-store';
import { utcHourStart } from '../../../domain/ledger/ledger-hour';
import { call, useApi } from '../../support/api-harness';
import { areaContext } from '../../support/area-context';
import { insertTestCross, testDelivery } from '../../support/composite-fixtures';
import { expectConforms } from '../../support/contract';
import { checkPublishedProof } from '../../../scripts/lib/ledger-proof-check';
import { typedApi } from '../../support/typed-api';

/**
 * The composite track of the audit ledger end to end: tiered first crosses are sealed, committed and proved over
 * HTTP (`?track=composite`) and the independent Python verifier accepts every proof; a cross still untiered when
 * its hour is sealed is refused its tier by the database and never published; a committed leaf cannot change.
 */
const H = 3_600_000;
const VERIFIER = path.join(__dirname, '../../verifiers/verify_proof.py');
const { t, api } = useApi({ env: { LEDGER_GRACE_S: '600' } });
const http = typedApi(() => api.url);
const BASE = utcHourStart(new Date(Date.now() - (100 + Math.floor(Math.random() * 5000)) * H));
const at = (hourK: number, s: number) => BASE.getTime() + hourK * H + s * 1000;

const python = (args: string[]) =>
  new Promise<{ status: number | null; stdout: string }>((resolve) => {
    execFile('python3', [VERIFIER, ...args], { encoding: 'utf8', timeout: 120_000 }, (e, stdout) =>
      resolve({ status: e ? (typeof e.code === 'number' ? e.code : null) : 0, stdout }),
    );
  });
const proof = (id: number, track: 'grad_prob' | 'composite' = 'composite') =>
  http.GET('/api/ledger/proof/{prediction_id}', { params: { path: { prediction_id: id }, query: { track } } });

const tiered: number[] = [];
let untiered: Awaited<ReturnType<typeof insertTestCross>>;

beforeAll(async () => {
  const signals = createSignalStore(t.db);
  // Hour 0: five crosses, two at the same second (the id breaks the tie), each tiered about a minute later; hour 2: one.
  for (const [k, s] of [
    [0, 10],
    [0, 10],
    [0, 1500],
    [0, 3599],
    [0, 2000],
    [2, 30],
  ] as const) {
    const x = await insertTestCross(t.db, { crossedAtMs: at(k, s) });
    const d = await signals.deliver(testDelivery(x, 0.41, at(k, s) + 70_000));
    expect(d).not.toBeNull();
    tiered.push(x.id);
  }
  // Crossed in hour 0, still waiting for its gp_60 when hour 0 is sealed.
  untiered = await insertTestCross(t.db, { crossedAtMs: at(0, 3000) });
  const a = ledgerActivities.create(areaContext(t.db, { env: { LEDGER_GRACE_S: '600' } }));
  const due = await a.sealLedgerHours();
  const composite = due.tracks.find((x) => x.track === 'composite')!;
  expect(composite.due).toEqual([BASE.toISOString(), new Date(BASE.getTime() + 2 * H).toISOString()]);
  for (const h of composite.due) await a.commitLedgerHour({ track: 'composite', hourStart: h });
});

describe('the composite track', () => {
  it('commits the tiered crosses of each hour, listed with ?track=composite and on /api/v1/composite_ledger', async () => {
    const r = await http.GET('/api/ledger/commits', { params: { query: { track: 'composite', since: 0 } } });
    expect(r.response.status).toBe(200);
    const list = r.data!;
    expect(list.commits.map((c) => [c.track, c.hour_start, c.leaf_count])).toEqual([
      ['composite', BASE.toISOString(), 5],
      ['composite', new Date(BASE.getTime() + 2 * H).toISOString(), 1],
    ]);
    expect(list.commits[1]!.prev_root_hex).toBe(list.commits[0]!.merkle_root_hex);
    const v1 = await http.GET('/api/v1/composite_ledger');
    expect(v1.response.status).toBe(200);
    expect(v1.data!.commits).toEqual(list.commits);
    // The grad_prob chain is a separate chain: it has no commits here.
    const grad = await http.GET('/api/ledger/commits', { params: { query: { since: 0 } } });
    expect(grad.response.status).toBe(200);
    expect(grad.data!.commits).toEqual([]);
  });

  it('serves proofs of every tiered cross that the independent Python verifier fetches and accepts', async () => {
    const r = await python(['--fetch', api.url, '--track', 'composite', ...tiered.map(String)]);
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines.filter((l) => !l.startsWith('OK   '))).toEqual([]);
    expect(lines).toHaveLength(6);
    expect(lines[5]).toMatch(/^OK {3}proof 5: composite v1 leaf 0\/1 root [0-9a-f]{64}$/);
    expect(r.status).toBe(0);
    const one = await proof(tiered[0]!);
    expect(one.response.status).toBe(200);
    expect(JSON.parse(one.data!.leaf_payload)).toMatchObject({ id: tiered[0], track: 'composite', tier: expect.any(String), smart_money_in: 2 });
    expect(one.data!.commit_url).toMatch(/&track=composite$/);
    // `npm run verify-proof -- … --track composite` checks it too; without the track the id names another row.
    const ours = await checkPublishedProof({ baseUrl: api.url, predictionId: tiered[0]!, track: 'composite' });
    expect(ours).toEqual({
      ok: true,
      lines: [expect.stringMatching(/^OK {3}proof: composite v1 leaf 0\/\d+ walks to root/), expect.stringMatching(/^OK {3}commit record digest/)],
    });
    expect((await checkPublishedProof({ baseUrl: api.url, predictionId: tiered[0]!, track: 'verdict' })).ok).toBe(false);
    // Two crosses at the same second: the smaller id comes first.
    expect([(await proof(tiered[0]!)).data!.leaf_index, (await proof(tiered[1]!)).data!.leaf_index]).toEqual([0, 1]);
  });

  it('never publishes a cross its hour was sealed before: the tier is refused, marked skipped and no longer pending', async () => {
    const signals = createSignalStore(t.db);
    const store = createCompositePredictionStore(t.db);
    expect((await store.pending(100)).map((p) => p.id)).toEqual([untiered.id]);
    const late = await signals.deliver(testDelivery(untiered, 0.5, Date.now()));
    expect(late).toBeNull();
    const row = await t.db('composite_predictions').where({ id: untiered.id }).first('tier', 'tier_skipped_at');
    expect(row).toEqual({ tier: null, tier_skipped_at: expect.any(Date) });
    expect(await store.pending(100)).toEqual([]);
    expect(await t.db('signals').where({ prediction_id: untiered.id }).first()).toBeUndefined();
    const r = await proof(untiered.id);
    expect(r.response.status).toBe(404);
    expect(r.error).toMatchObject({ status: 'unknown' });
  });

  it('refuses a change to a committed leaf field, and still records the outcome at resolution', async () => {
    const id = tiered[2]!;
    await expect(
      t
        .db('composite_predictions')
        .where({ id })
        .update({ tier: 'ACT' === (await tierOf(id)) ? 'SCOUT' : 'ACT' }),
    ).rejects.toMatchObject({
      code: 'LG001',
    });
    await expect(t.db('composite_predictions').where({ id }).update({ composite_score: 99 })).rejects.toMatchObject({ code: 'LG001' });
    await expect(t.db('composite_predictions').where({ id }).delete()).rejects.toMatchObject({ code: 'LG001' });
    await t.db('composite_predictions').where({ id }).update({ did_graduate: true, peak_mult_24h: 3.1, resolved_at: new Date(), label_version: 'test' });
    expect((await python(['--fetch', api.url, '--track', 'composite', String(id)])).status).toBe(0);
  });

  it('keeps the grad_prob default and refuses an unknown track with 422', async () => {
    const r = await proof(tiered[0]!, 'grad_prob');
    expect(r.response.status).toBe(404);
    expect(r.error).toMatchObject({ status: 'unknown' });
    // Tracks the types forbid: raw HTTP, each 422 checked against openapi.yaml.
    for (const [url, op] of [
      [`/api/ledger/proof/1?track=nope`, '/api/ledger/proof/{prediction_id}'],
      [`/api/ledger/commits?track=nope`, '/api/ledger/commits'],
    ] as const) {
      const bad = await call(`${api.url}${url}`);
      expect([url, bad.status]).toEqual([url, 422]);
      expectConforms('get', op, 422, bad.body);
    }
  });
});

async function tierOf(id: number): Promise<string> {
  return (await t.db('composite_predictions').where({ id }).first('tier')).tier;
}
