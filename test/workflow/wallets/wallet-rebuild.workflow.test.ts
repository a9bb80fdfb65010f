import { WALLET_RANKS_WORKFLOW } from '../../../workflows/wallets/wallet-ranks-contract';
import { walletRebuildProgressQuery, type WalletRebuildProgress } from '../../../workflows/wallets/wallet-rebuild-contract';
import { startWalletRebuild } from '../../../workflows/wallets/wallet-rebuild-starter';
import { toWalletRecord } from '../../../db/wallets/wallet-read-store';
import { issueTestKey } from '../../support/access-keys';
import { call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { createTestDatabase } from '../../support/test-db';
import { buildWalletHistory } from '../../support/wallet-history';
import { startWorker } from '../../support/worker-harness';

/**
 * The rebuild on the real Temporal test server: a resolved simulated market, one mint's label repaired in
 * mint_outcomes behind the index's back, then a rebuild that publishes a new scoring version (smart-v2, other
 * priors) in small batches across continue-as-new. The rebuilt records equal the live ones with the repaired label's
 * buyers moved (nothing counted twice), the API keeps answering while it runs, its progress is a query and a memo,
 * and afterwards the API scores with smart-v2 and says so.
 */
const now = new Date(Math.floor(Date.now() / 1000) * 1000);
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;
let api: Awaited<ReturnType<typeof startApi>>;

beforeAll(async () => {
  t = await createTestDatabase();
  w = await startWorker(t.db, { now: () => now });
  api = await startApi(t.db, { now: () => now, env: { WALLETS_READ_CACHE_MS: '0' } });
});
afterAll(async () => {
  await api.close();
  await w.stop();
  await t.drop();
});

const records = async () => (await t.db('wallet_records').orderBy('wallet')).map(toWalletRecord);
let history: Awaited<ReturnType<typeof buildWalletHistory>>;

it('rebuilds the index from the trades with a repaired label and a new scoring version, without stopping the API', async () => {
  history = await buildWalletHistory(t.db, { now, seed: 41, minutes: 20, horizonMin: 5 });
  const before = await records();
  expect(before.length).toBeGreaterThan(100);

  // A mid re-labelled rugged in mint_outcomes only: the live index still counts it as applied, a rebuild reads it anew.
  const mid = await t
    .db('mint_outcomes')
    .whereIn(
      'mint',
      history.resolved.map((c) => c.mint),
    )
    .where({ graduated: false, rugged: false })
    .orderBy('mint')
    .first();
  await t.db('mint_outcomes').where({ mint: mid.mint }).update({ rugged: true });
  const buyers = new Map((await t.db('wallet_mint_contributions').where({ mint: mid.mint })).map((r) => [r.wallet as string, r.fast_snipe as boolean]));
  expect(buyers.size).toBeGreaterThan(0);

  const v2 = { id: 'smart-v2', priorGraduationRate: 0.02, priorRugRate: 0.3, priorStrength: 10 };
  const handle = await startWalletRebuild(w.client, w.taskQueue, {
    rebuildId: 'repair-and-v2',
    scoreVersion: v2,
    batchMints: 25,
    defaultHorizonS: 300,
    batchesPerRun: 3,
  });
  // The API keeps serving the live index (here as soon as the rebuild starts; the swap is one short transaction).
  const probe = before[0]!;
  const during = await call(`${api.url}/api/wallet/${probe.wallet.slice(0, 12)}`);
  expect(during.status).toBe(200);
  expectConforms('get', '/api/wallet/{short}', 200, during.body);

  const done: WalletRebuildProgress = await handle.result();
  expect(done).toMatchObject({ phase: 'done', scoreVersion: 'smart-v2', mintsDone: done.totalMints, wallets: before.length });
  expect(done.totalMints).toBe(history.resolved.length);
  expect(done.batches).toBeGreaterThanOrEqual(Math.ceil(history.resolved.length / 25));
  expect(done.runs).toBeGreaterThan(1); // continued as new, progress carried
  const last = w.client.workflow.getHandle(handle.workflowId);
  expect(await last.query(walletRebuildProgressQuery)).toEqual(done);
  const memo = (await last.describe()).memo as { progress: { phase: string; mints: string } };
  expect(memo.progress).toMatchObject({ phase: 'done', mints: `${done.totalMints} / ${done.totalMints}` });

  const after = await records();
  expect(after.map((r) => r.wallet)).toEqual(before.map((r) => r.wallet));
  after.forEach((a, i) => {
    const b = before[i]!;
    const moved = buyers.has(b.wallet) ? 1 : 0;
    const snipe = buyers.get(b.wallet) ? 1 : 0;
    expect(a).toEqual({ ...b, mid: b.mid - moved, rugged: b.rugged + moved, snipedRugged: b.snipedRugged + snipe });
  });

  // The API publishes smart-v2: (g − r + k·(p_g − p_r)) / (n + k) with k = 10, p_g = 0.02, p_r = 0.3.
  const state = await t.db('wallet_index_state').first();
  expect(state.score_version).toBe('smart-v2');
  const lb = await call(`${api.url}/api/v1/wallets/leaderboard?kind=smart&min_total=1&limit=20`, { headers: (await issueTestKey(t.db, 'pro')).bearer });
  expect(lb.status).toBe(200);
  expectConforms('get', '/api/v1/wallets/leaderboard', 200, lb.body);
  expect(lb.body.score_version).toBe('smart-v2');
  const byPrefix = new Map(after.map((r) => [r.wallet.slice(0, 12), r]));
  for (const e of lb.body.wallets) {
    const r = byPrefix.get(e.wallet_prefix)!;
    expect(e.score).toBeCloseTo((r.graduated - r.rugged + 10 * (0.02 - 0.3)) / (r.total + 10), 12);
  }
  const ranks = await t.db('wallet_rank_snapshots').where({ score_version: 'smart-v2' }).first();
  expect(ranks).toBeDefined();
  await w.maybeRecordHistory(handle.workflowId, 'wallet-index-rebuild-first-run', handle.firstExecutionRunId);
  await w.maybeRecordHistory(handle.workflowId, 'wallet-index-rebuild-last-run');
}, 300_000);

it('refreshes the rank snapshot of the published version: rank and percentile on a wallet record', async () => {
  const all = await records();
  const ranked = all.filter((r) => r.total >= 8);
  expect(ranked.length).toBeGreaterThan(0);
  const workflowId = `wallet-ranks-test-${Date.now()}`;
  const r = await w.client.workflow.execute(WALLET_RANKS_WORKFLOW, { taskQueue: w.taskQueue, workflowId, args: [] });
  expect(r).toMatchObject({ scoreVersion: 'smart-v2', ranked: ranked.length });
  await w.maybeRecordHistory(workflowId, 'wallet-ranks');

  // Rank = 1 + ranked wallets strictly ahead in the smart order (score, then sample size); percentile from it.
  const v2 = (x: { graduated: number; rugged: number; total: number }) => (x.graduated - x.rugged + 10 * (0.02 - 0.3)) / (x.total + 10);
  // Percentile = share of ranked wallets at or below it: 100 · (ranked − ahead) / ranked. Checked for the best, the
  // worst and a middle wallet of the smart order, and for a wallet below min_total (no rank, no percentile).
  const aheadOf = (w0: (typeof ranked)[number]) => ranked.filter((x) => v2(x) > v2(w0) || (v2(x) === v2(w0) && x.total > w0.total)).length;
  const order = [...ranked].sort((a, b) => aheadOf(a) - aheadOf(b));
  const headers = (await issueTestKey(t.db, 'pro')).bearer;
  for (const w0 of [ranked[0]!, order[0]!, order[order.length - 1]!, order[Math.floor(order.length / 2)]!]) {
    const ahead = aheadOf(w0);
    const body = (await call(`${api.url}/api/v1/wallet/${w0.wallet}`, { headers })).body;
    expectConforms('get', '/api/v1/wallet/{address}', 200, body);
    expect(body).toMatchObject({ smart_score_version: 'smart-v2', wallets: [{ wallet: w0.wallet, rank: ahead + 1 }] });
    expect(body.wallets[0].smart_score).toBeCloseTo(v2(w0), 12);
    expect(body.wallets[0].percentile).toBeCloseTo((100 * (ranked.length - ahead)) / ranked.length, 5);
  }
  expect(aheadOf(order[0]!)).toBe(0);
  const unranked = all.find((r) => r.total < 8)!;
  const low = (await call(`${api.url}/api/v1/wallet/${unranked.wallet}`, { headers })).body;
  expect(low.wallets[0]).toMatchObject({ wallet: unranked.wallet, rank: null, percentile: null });
}, 120_000);

it('keeps every resolution that lands while a rebuild runs: in the swapped index once, as a clean rebuild counts it', async () => {
  // The mints younger than the horizon are still live; they are resolved one by one while a slow rebuild runs.
  const resolvedSet = new Set(history.resolved.map((c) => c.mint));
  const pending = history.creates.filter((c) => !resolvedSet.has(c.mint));
  expect(pending.length).toBeGreaterThan(20);
  const v3 = { id: 'smart-v3', priorGraduationRate: 0.03, priorRugRate: 0.25, priorStrength: 8 };
  const handle = await startWalletRebuild(w.client, w.taskQueue, {
    rebuildId: 'catch-up',
    scoreVersion: v3,
    batchMints: 10,
    defaultHorizonS: 300,
    batchesPerRun: 5,
  });
  let running = true;
  void handle.result().finally(() => (running = false));
  const phases: string[] = [];
  for (const c of pending) {
    const horizonAt = now.toISOString();
    await history.mint.resolveMint({ mint: c.mint, horizonAt });
    await history.wallets.applyWalletContributions({ mint: c.mint, horizonAt });
    if (running) phases.push((await w.client.workflow.getHandle(handle.workflowId).query(walletRebuildProgressQuery)).phase);
  }
  const done = await handle.result();
  expect(done.phase).toBe('done');
  // Some resolutions landed while the rebuild read the history, others in its later phases or after the swap.
  expect(phases.filter((p) => p === 'replaying' || p === 'preparing').length).toBeGreaterThan(0);

  const applied = new Set((await t.db('wallet_index_mints').select('mint')).map((r) => r.mint as string));
  for (const c of pending) expect(applied.has(c.mint)).toBe(true);
  const swapped = await records();
  // A second rebuild with the same version, nothing landing meanwhile, reads every mint once from the trades.
  await (
    await startWalletRebuild(w.client, w.taskQueue, { rebuildId: 'verify', scoreVersion: v3, batchMints: 200, defaultHorizonS: 300, batchesPerRun: 50 })
  ).result();
  expect(await records()).toEqual(swapped);
  expect(swapped.reduce((n, r) => n + r.total, 0)).toBe(Number((await t.db('wallet_mint_contributions').count('* as n').first())!.n));
}, 300_000);
