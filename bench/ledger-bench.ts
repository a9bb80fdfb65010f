import os from 'node:os';
import { ledgerActivities } from '../activities/ledger';
import { createLedgerProofStore } from '../db/ledger/ledger-proof-store';
import { createLedgerRows } from '../db/ledger/ledger-row-sources';
import { stepsFromPath } from '../domain/ledger/proof-path';
import { loadConfig } from '../platform/config';
import { freePort } from '../scripts/lib/local-temporal';
import { insertPredictionRows } from '../test/support/ledger-rows';
import { freshBenchDatabase } from './lib/bench-db';
import { machineLine, spawnApi } from './lib/load';
import { serialProbe } from './lib/serial-probe';
import { quantiles } from './lib/process-stats';

/**
 * `npm run bench:ledger [-- rows]`: one UTC hour of `rows` predictions (200,000 by default; a 70,000-launch day
 * has about 6,000 an hour) sealed and committed by the ledger's activities in this process (wall time, peak RSS
 * and heap growth while committing), the storage the commit adds, then inclusion proofs of random predictions
 * through HTTP from the API as its own process (p50/p99, one request at a time from a client process of its own on one
 * keep-alive connection, and 8 at once from this one), each one-at-a-time proof followed by a same-run reference: `/api/health`, answered from memory before Express, so the difference is the
 * proof's own cost under the machine's load at that moment; and the proof's lookup alone (the path's slices and the row,
 * in parallel) through the stores in this process, without HTTP. Rows are inserted in
 * scrambled time order, so tree order visits the table's pages at random (production writes an hour roughly in
 * time order): the commit's reads are the worst case.
 */
const ROWS = Number(process.argv[2] ?? 200_000);
const PROOFS = 2000;
const HOUR = new Date('2026-11-20T12:00:00.000Z');

const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;

async function main() {
  // Figures on a shared machine mostly measure waiting for a core: the load is printed with them.
  const load0 = os.loadavg()[0]!;
  const bench = await freshBenchDatabase('launchpad_bench_ledger');
  const { db } = bench;
  const ids: number[] = [];
  const t0 = Date.now();
  for (let done = 0; done < ROWS; done += 20_000) {
    ids.push(...(await insertPredictionRows(db, { hourStart: HOUR, count: Math.min(20_000, ROWS - done), tag: `b${done}x` })));
  }
  console.log(`inserted ${ids.length} prediction rows in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  await db.raw('VACUUM ANALYZE predictions');

  const acts = ledgerActivities.create({ cfg: loadConfig({ LEDGER_GRACE_S: '600' }), db, now: () => new Date(HOUR.getTime() + 2 * 3_600_000) });
  globalThis.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  const s0 = performance.now();
  const due = await acts.sealLedgerHours();
  const sealMs = performance.now() - s0;
  const c0 = performance.now();
  const commit = await acts.commitLedgerHour({ track: 'grad_prob', hourStart: due.tracks[0]!.due[0]! });
  const commitMs = performance.now() - c0;
  const heapGrowth = process.memoryUsage().heapUsed - heap0;
  clearInterval(sampler);
  if (commit.leafCount !== ROWS) throw new Error(`committed ${commit.leafCount} leaves, not ${ROWS}`);

  const size = async (table: string) => Number((await db.raw(`SELECT pg_total_relation_size('${table}') AS n`)).rows[0].n);
  const storage = { levels: await size('ledger_tree_levels'), leaves: await size('ledger_leaves'), commits: await size('ledger_commits') };
  const total = storage.levels + storage.leaves + storage.commits;

  // The proof's lookup without HTTP: the same store calls the route makes (the commit itself is cached there).
  const proofStore = createLedgerProofStore(db);
  const rows = createLedgerRows(db).find((r) => r.track === 'grad_prob')!;
  const lookup = async (id: number) => {
    const a = performance.now();
    const [path] = await Promise.all([proofStore.path('grad_prob', id), rows.leafOf(id)]);
    stepsFromPath(path!.leafIndex, commit.leafCount, path!.leaf, path!.partners);
    return performance.now() - a;
  };
  const pick = () => ids[Math.floor(Math.random() * ids.length)]!;
  for (let i = 0; i < 200; i++) await lookup(pick());
  const lookups: number[] = [];
  for (let i = 0; i < PROOFS; i++) lookups.push(await lookup(pick()));

  const api = await spawnApi(bench.url, await freePort(), { LOG_LEVEL: 'warn' });
  const get = async (path: string) => {
    const a = performance.now();
    const res = await fetch(`${api.base}${path}`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    return performance.now() - a;
  };
  const one = () => get(`/api/ledger/proof/${pick()}`);
  // One at a time from a client process of its own, each proof followed by the reference; the first 200 pairs warm
  // connections, prepared statements and the commit cache.
  const WARM_PAIRS = 200;
  const pairs = Array.from({ length: WARM_PAIRS + PROOFS }, () => [`/api/ledger/proof/${pick()}`, '/api/health']).flat();
  const timed = await serialProbe(api.base, pairs, 2 * WARM_PAIRS);
  const serial = timed.filter((_, i) => i % 2 === 0);
  const reference = timed.filter((_, i) => i % 2 === 1);
  const parallel: number[] = [];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = 0; i < PROOFS / 8; i++) parallel.push(await one());
    }),
  );
  await api.stop();
  await db.destroy();
  await bench.stop();

  const f = (xs: number[], q: number) => quantiles(xs, q).toFixed(2);
  console.log(`\nbench:ledger — ${machineLine()}, load average ${load0.toFixed(1)} at start, ${os.loadavg()[0]!.toFixed(1)} at end`);
  console.log(`| figure | value |\n|---|---|`);
  console.log(`| rows in the hour | ${ROWS.toLocaleString('en')} |`);
  console.log(`| seal (count and record the hour) | ${sealMs.toFixed(0)} ms |`);
  console.log(
    `| commit (read rows, build leaves, tree, store levels and leaf links) | ${(commitMs / 1000).toFixed(2)} s (${((commitMs * 1000) / ROWS).toFixed(1)} µs/leaf) |`,
  );
  console.log(`| worker peak RSS while committing / heap growth | ${mib(peakRss)} / ${mib(heapGrowth)} |`);
  console.log(
    `| storage added (tree levels + leaf links + commit) | ${mib(total)} (${(total / ROWS).toFixed(0)} B/leaf: levels ${mib(storage.levels)}, leaf links ${mib(storage.leaves)}) |`,
  );
  console.log(`| proof lookup in process (path and row in parallel; no HTTP) p50 / p99 | ${f(lookups, 0.5)} / ${f(lookups, 0.99)} ms |`);
  console.log(`| proof over HTTP, 1 at a time (${PROOFS}) p50 / p99 | ${f(serial, 0.5)} / ${f(serial, 0.99)} ms |`);
  console.log(`| same-run reference: /api/health over HTTP, interleaved with those proofs, p50 / p99 | ${f(reference, 0.5)} / ${f(reference, 0.99)} ms |`);
  console.log(`| proof over HTTP, 8 at once (${PROOFS}) p50 / p99 | ${f(parallel, 0.5)} / ${f(parallel, 0.99)} ms |`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
