import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { ledgerActivities } from '../../../activities/ledger';
import { planHourCommit } from '../../../domain/ledger/commit-chain';
import { commitRecordDigestHex, type CommitRecord } from '../../../domain/ledger/commit-record';
import { utcHourStart } from '../../../domain/ledger/ledger-hour';
import { PERPS_ENTRY_LEAF_V1 } from '../../../domain/ledger/perps-entry-leaf';
import { perpsLeafInput } from '../../../db/ledger/perps-row-source';
import { createDb } from '../../../platform/db';
import { call, startApi, type StartedApi } from '../../support/api-harness';
import { areaContext } from '../../support/area-context';
import { insertPerpsEntry } from '../../support/perps-entry-rows';
import { readTestEnv } from '../../support/test-env';
import { typedApi } from '../../support/typed-api';
import { asDb, type KnexDb } from '../../../db/knex-handle';

/**
 * Migration 0026 moves the perps track from the perps area's own chain onto the audit ledger: every commit the old
 * chain published keeps its root, previous root, record digest and commit time, its entries get proofs the
 * independent verifier accepts, `/api/perps/ledger/commits` lists the same roots, and the ledger's own seal then
 * continues the chain from its last root.
 */
const MIGRATIONS = { directory: path.resolve(__dirname, '../../../db/migrations'), loadExtensions: ['.ts'] };
const PERPS_LEDGER_TRACK = '20261124_0026_perps_ledger_track.ts';
const VERIFIER = path.join(__dirname, '../../verifiers/verify_proof.py');
const H = 3_600_000;
const BASE = utcHourStart(new Date(Date.now() - 30 * H));
const at = (hourK: number, s: number) => new Date(BASE.getTime() + hourK * H + s * 1000);
const ENV = { LEDGER_GRACE_S: '600' };
let db: KnexDb;
let name: string;
let api: StartedApi;

const python = (args: string[]) =>
  new Promise<{ status: number | null; stdout: string }>((resolve) => {
    execFile('python3', [VERIFIER, ...args], { encoding: 'utf8', timeout: 120_000 }, (e, stdout) =>
      resolve({ status: e ? (typeof e.code === 'number' ? e.code : null) : 0, stdout }),
    );
  });

beforeAll(async () => {
  const env = readTestEnv();
  name = `${env.dbPrefix}${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: env.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const u = new URL(env.adminUrl);
  u.pathname = `/${name}`;
  db = asDb(createDb(u.toString(), 4));
  // Every migration before this one, as a deployment that ran the perps area's own chain has them.
  const [, pending] = (await db.migrate.list(MIGRATIONS)) as [unknown[], { file: string }[]];
  for (const m of pending.map((p) => p.file).sort()) {
    if (m >= PERPS_LEDGER_TRACK) break;
    await db.migrate.up({ ...MIGRATIONS, name: m });
  }
});
afterAll(async () => {
  await api?.close();
  await db.destroy();
  const admin = new Client({ connectionString: readTestEnv().adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
});

/** What the old perps ledger activity wrote for an hour: the commit of its smart entries as they were then. */
async function oldChainCommit(hourStart: Date, previous: CommitRecord | null, committedAt: Date): Promise<CommitRecord> {
  const rows = await db('perps_entries')
    .where({ smart: true })
    .andWhere('detected_at', '>=', hourStart)
    .andWhere('detected_at', '<', new Date(hourStart.getTime() + H));
  const leaves = rows.map((r) => PERPS_ENTRY_LEAF_V1.build(perpsLeafInput(r)));
  const { record } = planHourCommit({ track: 'perps', leafVersion: 1, hourStart, leaves, previous })!;
  await db('perps_ledger_commits').insert({
    hour_start: record.hourStart,
    leaf_version: record.leafVersion,
    leaf_count: record.leafCount,
    first_id: record.firstId,
    last_id: record.lastId,
    root_hex: record.rootHex,
    prev_root_hex: record.prevRootHex,
    record_digest_hex: commitRecordDigestHex(record),
    committed_at: committedAt,
  });
  return record;
}

describe('migration 0026: the perps chain carried onto the audit ledger', () => {
  const ids: Record<string, number[]> = { h0: [], h1: [], h3: [] };
  let old: CommitRecord[] = [];

  it('keeps every published root and gives the carried entries proofs the independent verifier accepts', async () => {
    for (const s of [5, 5, 900]) ids.h0!.push(await insertPerpsEntry(db, { detectedAt: at(0, s) }));
    await insertPerpsEntry(db, { detectedAt: at(0, 60), smart: false });
    for (const s of [10, 20]) ids.h1!.push(await insertPerpsEntry(db, { detectedAt: at(1, s) }));
    ids.h3!.push(await insertPerpsEntry(db, { detectedAt: at(3, 1) }));
    const changed = await insertPerpsEntry(db, { detectedAt: at(4, 1) });
    // Each written a minute after its detection, as the snapshot sweep does.
    await db('perps_entries').update({ created_at: db.raw(`detected_at + interval '1 minute'`) });
    const c0 = await oldChainCommit(at(0, 0), null, at(1, 1200));
    const c1 = await oldChainCommit(at(1, 0), c0, at(2, 1200));
    const c3 = await oldChainCommit(at(3, 0), c1, at(4, 1200));
    const c4 = await oldChainCommit(at(4, 0), c3, at(5, 1200));
    old = [c0, c1, c3, c4];
    // Written into hour 1 after its commit (the old chain had no seal): never in its tree, which still rebuilds.
    const late = await insertPerpsEntry(db, { detectedAt: at(1, 30) });
    // Changed after its commit (behind the old chain's back): hour 4 no longer rebuilds; its record is kept anyway.
    await db('perps_entries').where({ id: changed }).update({ size: 1234 });

    await db.migrate.latest(MIGRATIONS);

    const carried = await db('ledger_commits').where({ track: 'perps' }).orderBy('hour_start');
    expect(carried.map((c) => [c.hour_start.toISOString(), c.root_hex, c.prev_root_hex, c.record_digest_hex, c.committed_at.toISOString()])).toEqual([
      [at(0, 0).toISOString(), c0.rootHex, null, commitRecordDigestHex(c0), at(1, 1200).toISOString()],
      [at(1, 0).toISOString(), c1.rootHex, c0.rootHex, commitRecordDigestHex(c1), at(2, 1200).toISOString()],
      [at(3, 0).toISOString(), c3.rootHex, c1.rootHex, commitRecordDigestHex(c3), at(4, 1200).toISOString()],
      [at(4, 0).toISOString(), c4.rootHex, c3.rootHex, commitRecordDigestHex(c4), at(5, 1200).toISOString()],
    ]);
    expect(await db.schema.hasTable('perps_ledger_commits')).toBe(false);
    expect(await db('ledger_perps_carry_gaps').select('hour_start', 'leaf_count', 'rows_now')).toEqual([{ hour_start: at(4, 0), leaf_count: 1, rows_now: 1 }]);
    expect(await db('ledger_leaves').where({ track: 'perps', item_id: changed }).first()).toBeUndefined();

    api = await startApi(db, { env: ENV });
    const all = [...ids.h0!, ...ids.h1!, ...ids.h3!];
    const r = await python(['--fetch', api.url, '--track', 'perps', ...all.map(String)]);
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines.filter((l) => !l.startsWith('OK   '))).toEqual([]);
    expect(lines).toHaveLength(all.length);
    expect(r.status).toBe(0);
    // The late entry was never committed and cannot enter its sealed hour now.
    expect((await call(`${api.url}/api/ledger/proof/${late}?track=perps`)).status).toBe(404);
    await expect(insertPerpsEntry(db, { detectedAt: at(2, 5) })).rejects.toMatchObject({ code: 'LG001' });
  });

  it('serves the same roots on /api/perps/ledger/commits, and the ledger continues the chain from the last one', async () => {
    const http = typedApi(api.url);
    const listed = await http.GET('/api/perps/ledger/commits');
    expect(listed.data!.commits.map((c) => [c.hour_start, c.merkle_root_hex, c.prev_root_hex])).toEqual(
      [...old].reverse().map((c) => [c.hourStart.toISOString(), c.rootHex, c.prevRootHex]),
    );
    const next = await insertPerpsEntry(db, { detectedAt: at(6, 30) });
    const a = ledgerActivities.create(areaContext(db, { env: ENV }));
    const due = (await a.sealLedgerHours()).tracks.find((x) => x.track === 'perps')!;
    expect(due.due).toEqual([at(6, 0).toISOString()]);
    await a.commitLedgerHour({ track: 'perps', hourStart: due.due[0]! });
    const chain = await call(`${api.url}/api/ledger/commits?track=perps&since=0`);
    expect(chain.body.commits.map((c: { prev_root_hex: string | null }) => c.prev_root_hex)).toEqual([null, ...old.map((c) => c.rootHex)]);
    expect((await python(['--fetch', api.url, '--track', 'perps', String(next)])).status).toBe(0);
  });
});
