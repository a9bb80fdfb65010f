import { execFile } from 'node:child_process';
import path from 'node:path';
import { ledgerActivities } from '../../../activities/ledger';
import { verifyCommitChain } from '../../../domain/ledger/commit-chain';
import { utcHourStart } from '../../../domain/ledger/ledger-hour';
import { call, useApi } from '../../support/api-harness';
import { areaContext } from '../../support/area-context';
import { expectConforms } from '../../support/contract';
import { insertPerpsEntry } from '../../support/perps-entry-rows';
import { typedApi } from '../../support/typed-api';

/**
 * The perps track on the audit ledger end to end: smart entries are sealed, committed and proved like every track
 * (`?track=perps`), the independent Python verifier accepts every proof, the database refuses a late or changed
 * entry in a sealed hour, and `/api/perps/ledger/commits` still answers per openapi.yaml, from the same commits.
 */
const H = 3_600_000;
const VERIFIER = path.join(__dirname, '../../verifiers/verify_proof.py');
const ENV = { LEDGER_GRACE_S: '600' };
const { t, api } = useApi({ env: ENV });
const http = typedApi(() => api.url);
const BASE = utcHourStart(new Date(Date.now() - (100 + Math.floor(Math.random() * 5000)) * H));
const at = (hourK: number, s: number) => new Date(BASE.getTime() + hourK * H + s * 1000);

const python = (args: string[]) =>
  new Promise<{ status: number | null; stdout: string }>((resolve) => {
    execFile('python3', [VERIFIER, ...args], { encoding: 'utf8', timeout: 120_000 }, (e, stdout) =>
      resolve({ status: e ? (typeof e.code === 'number' ? e.code : null) : 0, stdout }),
    );
  });
const proof = (id: number) => call(`${api.url}/api/ledger/proof/${id}?track=perps`);

const smart: number[] = [];
let notSmart: number;

async function sealAndCommit(): Promise<string[]> {
  const a = ledgerActivities.create(areaContext(t.db, { env: ENV }));
  const due = (await a.sealLedgerHours()).tracks.find((x) => x.track === 'perps')!;
  for (const h of due.due) await a.commitLedgerHour({ track: 'perps', hourStart: h });
  return due.due;
}

beforeAll(async () => {
  // Hour 0: five smart entries (three at the same second: the id breaks the tie) and one that is not smart; hour 2: one.
  for (const [k, s] of [
    [0, 10],
    [0, 10],
    [0, 10],
    [0, 1500],
    [0, 3599],
    [2, 30],
  ] as const) {
    smart.push(await insertPerpsEntry(t.db, { detectedAt: at(k, s) }));
  }
  notSmart = await insertPerpsEntry(t.db, { detectedAt: at(0, 20), smart: false });
  expect(await sealAndCommit()).toEqual([BASE.toISOString(), new Date(BASE.getTime() + 2 * H).toISOString()]);
});

describe('the perps track of the audit ledger', () => {
  it('commits the smart entries of each hour as a chain, listed with ?track=perps', async () => {
    const r = await call(`${api.url}/api/ledger/commits?track=perps&since=0`);
    expect(r.status).toBe(200);
    expectConforms('get', '/api/ledger/commits', 200, r.body);
    const commits = r.body.commits as Record<string, any>[];
    expect(commits.map((c) => [c.track, c.hour_start, c.leaf_count, c.first_prediction_id, c.leaf_version])).toEqual([
      ['perps', BASE.toISOString(), 5, smart[0], 1],
      ['perps', new Date(BASE.getTime() + 2 * H).toISOString(), 1, smart[5], 1],
    ]);
    expect(commits[1]!.prev_root_hex).toBe(commits[0]!.merkle_root_hex);
    const records = commits.map((c) => ({
      track: c.track,
      hourStart: new Date(c.hour_start),
      leafVersion: c.leaf_version,
      leafCount: c.leaf_count,
      firstId: c.first_prediction_id,
      lastId: c.last_prediction_id,
      rootHex: c.merkle_root_hex,
      prevRootHex: c.prev_root_hex,
      digestHex: c.record_digest_hex,
    }));
    expect(verifyCommitChain(records)).toEqual({ ok: true });
  });

  it('serves a proof of every smart entry that the independent Python verifier fetches and accepts', async () => {
    const r = await python(['--fetch', api.url, '--track', 'perps', ...smart.map(String)]);
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines.filter((l) => !l.startsWith('OK   '))).toEqual([]);
    expect(lines).toHaveLength(6);
    expect(lines[5]).toMatch(/^OK {3}proof 5: perps v1 leaf 0\/1 root [0-9a-f]{64}$/);
    expect(r.status).toBe(0);
    const one = await proof(smart[1]!);
    expectConforms('get', '/api/ledger/proof/{prediction_id}', 200, one.body);
    expect(JSON.parse(one.body.leaf_payload)).toMatchObject({ id: smart[1], track: 'perps', detected_at: at(0, 10).toISOString() });
    expect(one.body).toMatchObject({ track: 'perps', leaf_index: 1, commit_url: expect.stringMatching(/&track=perps$/) });
  });

  it('has no leaf for an entry that is not smart, and says when an entry of an open hour will be committed', async () => {
    const r = await proof(notSmart);
    expect(r.status).toBe(404);
    expectConforms('get', '/api/ledger/proof/{prediction_id}', 404, r.body);
    expect(r.body).toMatchObject({ status: 'unknown' });
    const open = await insertPerpsEntry(t.db, { detectedAt: new Date() });
    const p = await proof(open);
    expect(p.status).toBe(404);
    expectConforms('get', '/api/ledger/proof/{prediction_id}', 404, p.body);
    expect(p.body).toMatchObject({ status: 'pending', hour_start: utcHourStart(new Date()).toISOString() });
  });

  it('refuses an entry written late into a sealed hour, and a change to a sealed entry that would alter its leaf', async () => {
    for (const e of [{ detectedAt: at(0, 100) }, { detectedAt: at(1, 100) }, { detectedAt: at(0, 100), smart: false }]) {
      await expect(insertPerpsEntry(t.db, e)).rejects.toMatchObject({ code: 'LG001' });
    }
    const id = smart[3]!;
    for (const change of [{ size: 99 }, { smart: false }, { detected_at: at(5, 0) }]) {
      await expect(t.db('perps_entries').where({ id }).update(change)).rejects.toMatchObject({ code: 'LG001' });
    }
    await expect(t.db('perps_entries').where({ id: notSmart }).update({ smart: true })).rejects.toMatchObject({ code: 'LG001' });
    await expect(t.db('perps_entries').where({ id }).delete()).rejects.toMatchObject({ code: 'LG001' });
    // The judging outbox is no leaf field: it stays writable.
    await t.db('perps_entries').where({ id }).update({ judging_started_at: new Date() });
    expect((await python(['--fetch', api.url, '--track', 'perps', String(id)])).status).toBe(0);
  });

  it('still answers /api/perps/ledger/commits per openapi.yaml, newest first, from the same commits', async () => {
    const chain = (await call(`${api.url}/api/ledger/commits?track=perps&since=0`)).body.commits as Record<string, any>[];
    const r = await http.GET('/api/perps/ledger/commits');
    expect(r.response.status).toBe(200);
    expect(r.data!.count).toBe(2);
    expect(r.data!.commits.map((c) => [c.track, c.hour_start, c.merkle_root_hex, c.prev_root_hex, c.first_id, c.last_id, c.record_digest_hex])).toEqual(
      [...chain]
        .reverse()
        .map((c) => [c.track, c.hour_start, c.merkle_root_hex, c.prev_root_hex, c.first_prediction_id, c.last_prediction_id, c.record_digest_hex]),
    );
    const one = await http.GET('/api/perps/ledger/commits', { params: { query: { limit: 1 } } });
    expect(one.data!.commits.map((c) => c.hour_start)).toEqual([new Date(BASE.getTime() + 2 * H).toISOString()]);
    expect(one.data!.count).toBe(2);
    const bad = await http.GET('/api/perps/ledger/commits', { params: { query: { limit: 0 } } });
    expect(bad.response.status).toBe(422);
    expect((await http.GET('/api/perps/observatory')).data!.lifetime.ledger_commits).toBe(2);
  });

  it('is live in /api/scope, with its commits counted', async () => {
    const r = await http.GET('/api/scope');
    const perps = r.data!.audit_trail.tracks.find((x) => x.track === 'perps')!;
    expect(perps).toMatchObject({ status: 'live', commits: 2, latest_hour_start: new Date(BASE.getTime() + 2 * H).toISOString() });
  });
});
