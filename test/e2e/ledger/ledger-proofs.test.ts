import { execFile } from 'node:child_process';
import path from 'node:path';
import { ledgerActivities } from '../../../activities/ledger';
import { verifyCommitChain } from '../../../domain/ledger/commit-chain';
import { utcHourStart } from '../../../domain/ledger/ledger-hour';
import { verifyProofDocument, type ProofDocument } from '../../../domain/ledger/ledger-proof';
import { call, useApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { errorLocs, typedApi } from '../../support/typed-api';
import type { Schemas } from '../../../clients/api/api-client';
import { areaContext } from '../../support/area-context';
import type { Knex } from 'knex';
import { createLaunchEventStore } from '../../../db/mint/launch-event-store';
import { handBuiltMint } from '../../support/hand-built-mint';
import { insertPredictionRows } from '../../support/ledger-rows';

/**
 * The audit trail end to end over HTTP: hours sealed and committed by the ledger's activities, commits listed in
 * chain order, and proofs served for every leaf that the independent Python verifier (standard library only)
 * fetches and accepts; then tampering with a stored row and removing a commit, which the proofs and the chain show.
 */
const H = 3_600_000;
const VERIFIER = path.join(__dirname, '../../verifiers/verify_proof.py');
const { t, api } = useApi({ env: { LEDGER_GRACE_S: '600' } });
const http = typedApi(() => api.url);
// A random past day, so no other file's hours (or workflow ids) are these.
const BASE = utcHourStart(new Date(Date.now() - (100 + Math.floor(Math.random() * 5000)) * H));
const hour = (k: number) => new Date(BASE.getTime() + k * H);
const ids: Record<string, number[]> = {};

const acts = () => ledgerActivities.create(areaContext(t.db, { env: { LEDGER_GRACE_S: '600' } }));
// Asynchronous: the API under test answers the verifier's requests from this same process.
const python = (args: string[]) =>
  new Promise<{ status: number | null; stdout: string }>((resolve) => {
    execFile('python3', [VERIFIER, ...args], { encoding: 'utf8', timeout: 120_000 }, (e, stdout) =>
      resolve({ status: e ? (typeof e.code === 'number' ? e.code : null) : 0, stdout }),
    );
  });
const proof = (id: number) => http.GET('/api/ledger/proof/{prediction_id}', { params: { path: { prediction_id: id } } });
const listCommits = async (query: { since?: number; limit?: number } = {}) => {
  const r = await http.GET('/api/ledger/commits', { params: { query } });
  expect(r.response.status).toBe(200);
  return r.data!;
};

// A mint the service has seen, for /api/predictions/by_mint: its one prediction is the single-leaf hour.
const SEEN_TAG = 'LedgerByMintzzzzzzzzzzzzzzzzzzz';
const SEEN_MINT = `Mint${SEEN_TAG}1`; // as insertPredictionRows names its first row's mint

beforeAll(async () => {
  await createLaunchEventStore(t.db).writeBatch([handBuiltMint({ mint: SEEN_MINT, at: hour(0).getTime() }).create]);
  ids.single = await insertPredictionRows(t.db, { hourStart: hour(0), count: 1, tag: SEEN_TAG });
  ids.odd = await insertPredictionRows(t.db, { hourStart: hour(2), count: 7, tag: 'b', slots: 3 }); // hour 1 stays empty
  ids.many = await insertPredictionRows(t.db, { hourStart: hour(3), count: 300, tag: 'c', slots: 200 });
  const a = acts();
  const due = await a.sealLedgerHours();
  const grad = due.tracks.find((x) => x.track === 'grad_prob')!;
  expect(grad.due).toEqual([hour(0), hour(2), hour(3)].map((h) => h.toISOString()));
  for (const h of grad.due) await a.commitLedgerHour({ track: 'grad_prob', hourStart: h });
});

describe('GET /api/ledger/commits', () => {
  it('lists the commits in chain order, each linked to the previous root, with a matching record digest', async () => {
    const list = await listCommits();
    expect(list.commits.map((c) => [c.hour_start, c.leaf_count])).toEqual([
      [hour(0).toISOString(), 1],
      [hour(2).toISOString(), 7],
      [hour(3).toISOString(), 300],
    ]);
    expect(list.commits[0]!.prev_root_hex).toBeNull();
    const records = list.commits.map(recordOf);
    expect(verifyCommitChain(records)).toEqual({ ok: true });
    expect(list.commits[2]!.anchor).toMatchObject({ status: 'none', signature: null, memo: expect.stringMatching(/^lpapi:ledger:v1:grad_prob:/) });
    expect(list.next_since).toBe(hour(3).getTime() / 1000);
  });

  it('pages forward with since (exclusive) and limit, and answers 422 for bad parameters', async () => {
    const first = await listCommits({ since: 0, limit: 2 });
    expect(first.commits.map((c) => c.hour_start)).toEqual([hour(0), hour(2)].map((h) => h.toISOString()));
    const next = await listCommits({ since: first.next_since!, limit: 2 });
    expect(next).toMatchObject({ count: 1, next_since: hour(3).getTime() / 1000 });
    const none = await listCommits({ since: next.next_since! });
    expect(none).toMatchObject({ count: 0, commits: [], next_since: next.next_since });
    for (const [query, loc] of [
      [{ limit: 0 }, 'query.limit'],
      [{ since: -1 }, 'query.since'],
    ] as const) {
      const bad = await http.GET('/api/ledger/commits', { params: { query } });
      expect([query, bad.response.status]).toEqual([query, 422]);
      expect(errorLocs(bad.error)).toEqual([loc]);
    }
    // The spec gives limit no maximum: a larger one is served, capped inside at 500 commits.
    expect((await http.GET('/api/ledger/commits', { params: { query: { since: 0, limit: 501 } } })).response.status).toBe(200);
    // A since that is not an integer is input the types forbid: raw HTTP, its 422 checked against openapi.yaml.
    for (const q of ['since=abc', 'since=1e3']) {
      const bad = await call(`${api.url}/api/ledger/commits?${q}`);
      expect([q, bad.status]).toEqual([q, 422]);
      expectConforms('get', '/api/ledger/commits', 422, bad.body);
    }
  });
});

describe('GET /api/ledger/proof/{prediction_id}', () => {
  it('serves proofs the independent Python verifier fetches and accepts: one leaf, an odd count, hundreds', async () => {
    const all = [...ids.single!, ...ids.odd!, ...ids.many!];
    const r = await python(['--fetch', api.url, ...all.map(String)]);
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines.filter((l) => !l.startsWith('OK   '))).toEqual([]);
    expect(lines).toHaveLength(308);
    expect(lines[0]).toMatch(/^OK {3}proof 0: grad_prob v1 leaf 0\/1 root [0-9a-f]{64}$/);
    expect(r.status).toBe(0);
  });

  it('conforms to the contract and verifies with our own code against the published commit', async () => {
    const { commits } = await listCommits();
    for (const id of [...ids.odd!, ids.many![0]!, ids.many![299]!]) {
      const r = await proof(id);
      expect(r.response.status).toBe(200);
      const c = commits.find((x) => x.hour_start === r.data!.hour)!;
      expect(
        verifyProofDocument(r.data! as ProofDocument, {
          track: c.track,
          hourStart: new Date(c.hour_start),
          leafCount: c.leaf_count,
          rootHex: c.merkle_root_hex,
        }),
      ).toEqual({
        ok: true,
      });
      expect(JSON.parse(r.data!.leaf_payload)).toMatchObject({ id, track: 'grad_prob', leaf_version: 1 });
    }
    // Seven rows at three distinct seconds: ties broken by id, every index used once.
    const indexes = await Promise.all(ids.odd!.map(async (id) => (await proof(id)).data!.leaf_index));
    expect([...indexes].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('answers 404 with the documented body: unknown, and pending with when it will be committed', async () => {
    const unknown = await proof(987654321);
    expect(unknown.response.status).toBe(404);
    expect(unknown.error).toMatchObject({ error: 'not_found', status: 'unknown', prediction_id: 987654321, hour_start: null, commit_expected_by: null });

    const now = new Date();
    const [pending] = await insertPredictionRows(t.db, { hourStart: utcHourStart(now), count: 1, tag: 'now', slots: 1 });
    const r = await proof(pending!);
    expect(r.response.status).toBe(404);
    const expected = new Date(utcHourStart(now).getTime() + H + (600 + 60) * 1000).toISOString();
    expect(r.error).toMatchObject({ status: 'pending', hour_start: utcHourStart(now).toISOString(), commit_expected_by: expected });
    expect(Number(r.response.headers.get('retry-after'))).toBeGreaterThan(600);
    // A row whose leaf cannot be built (a calibration record of another shape) is still pending, never a 500.
    const [odd] = await insertPredictionRows(t.db, { hourStart: utcHourStart(now), count: 1, tag: 'odd-cal', slots: 1 });
    await t
      .db('predictions')
      .where({ id: odd })
      .update({ calibration: JSON.stringify({ historical_actual_rate: 'n/a' }) });
    const unbuildable = await proof(odd!);
    expect(unbuildable.response.status).toBe(404);
    expect(unbuildable.error).toMatchObject({ status: 'pending', hour_start: utcHourStart(now).toISOString() });
    expect((await proof(0)).response.status).toBe(422);
  });
});

describe('what other operations say about the ledger', () => {
  it('/api/predictions/by_mint marks a committed prediction with its commit and proof link', async () => {
    const r = await http.GET('/api/predictions/by_mint/{mint}', { params: { path: { mint: SEEN_MINT } } });
    expect(r.response.status).toBe(200);
    expect(r.data!.predictions).toEqual([
      expect.objectContaining({
        prediction_id: ids.single![0],
        ledger_hour_start: hour(0).toISOString(),
        committed: true,
        committed_at: expect.any(String),
        proof_url: `/api/ledger/proof/${ids.single![0]}`,
      }),
    ]);
  });

  it('/api/scope states every track as live (composite, perps and verdict without rows here)', async () => {
    const r = await http.GET('/api/scope');
    expect(r.response.status).toBe(200);
    const scope = r.data!;
    expect(scope.audit_trail.tracks.map((x) => [x.track, x.status, x.commits])).toEqual([
      ['grad_prob', 'live', 3],
      ['composite', 'live', 0],
      ['perps', 'live', 0],
      ['verdict', 'live', 0],
    ]);
    expect(scope.audit_trail).toMatchObject({ grace_s: 600, anchoring: 'off' });
    expect(scope.in_scope).toContain(`audit trail: ${scope.audit_trail.summary}`);
  });

  it('/api/v1/composite_ledger lists the composite track, empty until its rows are committed', async () => {
    const r = await http.GET('/api/v1/composite_ledger');
    expect(r.response.status).toBe(200);
    expect(r.data).toEqual({ track: 'composite', count: 0, commits: [], next_since: null });
  });
});

// Last: these change stored rows behind the database's back (a superuser switching its triggers off), as a
// dishonest operator could, and show that outsiders can tell.
describe('tampering is detectable', () => {
  const behindTheTriggers = (f: (trx: Knex.Transaction) => Promise<unknown>) =>
    t.db.transaction(async (trx) => {
      await trx.raw('SET LOCAL session_replication_role = replica');
      await f(trx);
    });

  it('a stored row changed after its commit gets a proof that both verifiers refuse', async () => {
    const id = ids.many![17]!;
    await behindTheTriggers((trx) => trx('predictions').where({ id }).update({ grad_prob: 0.999 }));
    const r = await proof(id);
    expect(r.response.status).toBe(200);
    expect(JSON.parse(r.data!.leaf_payload).grad_prob).toBe('0.999');
    const c = (await listCommits()).commits.find((x) => x.hour_start === r.data!.hour)!;
    expect(
      verifyProofDocument(r.data! as ProofDocument, { track: c.track, hourStart: new Date(c.hour_start), leafCount: c.leaf_count, rootHex: c.merkle_root_hex }),
    ).toEqual({
      ok: false,
      problem: expect.stringMatching(/root/),
    });
    const py = await python(['--fetch', api.url, String(id), String(ids.many![18])]);
    expect(py.stdout.split('\n').filter(Boolean)).toEqual([expect.stringMatching(/^FAIL proof 0: /), expect.stringMatching(/^OK {3}proof 1: /)]);
    expect(py.status).toBe(1);
  });

  it('the hash chain shows a removed commit', async () => {
    const before = (await listCommits()).commits.map(recordOf);
    expect(verifyCommitChain(before)).toEqual({ ok: true });
    await behindTheTriggers((trx) =>
      trx('ledger_commits')
        .where({ track: 'grad_prob', hour_start: hour(2) })
        .delete(),
    );
    const after = (await listCommits()).commits.map(recordOf);
    expect(after).toHaveLength(2);
    expect(verifyCommitChain(after)).toEqual({ ok: false, index: 1, problem: expect.any(String) });
  });
});

const recordOf = (c: Schemas['LedgerCommit']) => ({
  track: c.track,
  hourStart: new Date(c.hour_start),
  leafVersion: c.leaf_version,
  leafCount: c.leaf_count,
  firstId: c.first_prediction_id,
  lastId: c.last_prediction_id,
  rootHex: c.merkle_root_hex,
  prevRootHex: c.prev_root_hex,
  digestHex: c.record_digest_hex,
});
