import { createJupiterPriceClient } from '../../../clients/jupiter-price-client';
import type { CreateEvent, LaunchEvent, TradeEvent } from '../../../domain/launch/launch-events';
import { createIngestPipeline } from '../../../ingest/pipeline/ingest-pipeline';
import { mintWorkflowId, stateQuery, type LifecycleState, type LifecycleTiming } from '../../../workflows/mint/mint-lifecycle-contract';
import { startJupiterPriceServer } from '../../fakes/jupiter-price-server';
import { call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { createTestDatabase } from '../../support/test-db';
import { startWorker, uniqueId } from '../../support/worker-harness';
import { testIngestPipeline } from '../../support/test-ingest-pipeline';

/** The whole lifecycle in seconds: scores at 1 s and 2 s (buckets 30 and 60), resolution at 5 s. */
const TIMING: LifecycleTiming = {
  scores: [
    { bucket: 30, afterS: 1 },
    { bucket: 60, afterS: 2 },
  ],
  maxLatenessS: 30,
  resolveAfterS: 5,
  checkpointsS: [1, 2],
  checkpointRetry: { initialIntervalS: 0.1, maximumAttempts: 2 },
};

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;
let api: Awaited<ReturnType<typeof startApi>>;
let jup: Awaited<ReturnType<typeof startJupiterPriceServer>>;
let pipeline: ReturnType<typeof createIngestPipeline>;

beforeAll(async () => {
  t = await createTestDatabase();
  jup = await startJupiterPriceServer();
  const priceClient = createJupiterPriceClient(jup.url, { timeoutMs: 1000 });
  w = await startWorker(t.db, { overrides: { mint: { dexPriceClient: priceClient } } });
  api = await startApi(t.db);
  pipeline = testIngestPipeline(t.db, w, TIMING);
});
afterAll(async () => {
  await api.close();
  await w.stop();
  await jup.close();
  await t.drop();
});

// Base58 strings of the right length for addresses and signatures.
const b58 = (prefix: string, len: number) => (prefix + '1'.repeat(len)).slice(0, len).replace(/[0OIl]/g, 'x');
const addr = (tag: string) => b58(uniqueId(tag).replace(/[^1-9A-HJ-NP-Za-km-z]/g, 'z'), 44);

function launch(creator = addr('creator')) {
  const mint = addr('mint');
  const at = new Date();
  const create: CreateEvent = {
    kind: 'create',
    signature: b58(uniqueId('sig'), 88),
    ordinal: 0,
    slot: 1000,
    at,
    source: 'test',
    mint,
    name: 'Test',
    symbol: 'TST',
    uri: 'https://example.invalid/t.json',
    bondingCurve: addr('curve'),
    creator,
    mayhem: false,
    vSolLamports: 30_000_000_000,
    vTokensRaw: 1_073_000_000_000_000,
  };
  let vSol = create.vSolLamports;
  let vTok = create.vTokensRaw;
  const trade = (afterMs: number, sol: number, trader = addr('buyer')): TradeEvent => {
    const k = vSol * vTok;
    vSol += sol;
    const newTok = Math.round(k / vSol);
    const tokens = vTok - newTok;
    vTok = newTok;
    return {
      kind: 'trade',
      signature: b58(uniqueId('sig'), 88),
      ordinal: 0,
      slot: 1001,
      at: new Date(at.getTime() + afterMs),
      source: 'test',
      mint,
      trader,
      isBuy: true,
      solLamports: sol,
      tokensRaw: tokens,
      vSolLamports: vSol,
      vTokensRaw: vTok,
    };
  };
  return { mint, create, trade };
}

const waitResult = (mint: string): Promise<LifecycleState> => w.client.workflow.getHandle(mintWorkflowId(mint)).result();

describe('mint lifecycle: ingest → workflow → predictions → resolution', () => {
  it('scores once at each age bucket, resolves not-graduated at the horizon, and ignores duplicate events', async () => {
    const { mint, create, trade } = launch();
    const events: LaunchEvent[] = [create, trade(200, 500_000_000), trade(400, 300_000_000)];
    await pipeline.handle(events);
    await pipeline.handle(events); // a second feed delivering the same events
    const state = await waitResult(mint);
    // Recorded under a new name since the wallet index step: mint-not-graduated.json is the history from before it.
    await w.maybeRecordHistory(mintWorkflowId(mint), 'mint-not-graduated-wallet-index');
    expect(state.scores.map((s) => [s.bucket, s.status])).toEqual([
      [30, 'scored'],
      [60, 'scored'],
    ]);
    expect(state.outcome).toMatchObject({ graduated: false });

    const rows = await t.db('predictions').where({ mint }).orderBy('age_bucket');
    expect(rows.map((r) => r.age_bucket)).toEqual([30, 60]);
    for (const r of rows) expect(r.grad_prob).toBeGreaterThan(0);
    expect(await t.db('trades').where({ mint }).count('* as n').first()).toEqual({ n: 2 });
    // The resolution step applied the mint to its two buyers' wallet records, once.
    const buyers = events.slice(1).map((e) => (e as TradeEvent).trader);
    const wallets = await t.db('wallet_records').whereIn('wallet', buyers).orderBy('wallet');
    expect(wallets.map((x) => [x.wallet, x.total, x.mid, x.graduated, x.rugged])).toEqual([...buyers].sort().map((b) => [b, 1, 1, 0, 0]));
    expect(await t.db('wallet_index_mints').where({ mint }).first()).toMatchObject({ buyers: 2, graduated: false });

    const r = await call(`${api.url}/api/predictions/by_mint/${mint}`);
    expect(r.status).toBe(200);
    expectConforms('get', '/api/predictions/by_mint/{mint}', 200, r.body);
    expect(r.body.predictions.map((p: { age_bucket: number; did_graduate: boolean }) => [p.age_bucket, p.did_graduate])).toEqual([
      [30, false],
      [60, false],
    ]);

    const probe = await call(`${api.url}/api/v1/probe/${mint}`);
    expect(probe.status).toBe(200);
    expectConforms('get', '/api/v1/probe/{mint}', 200, probe.body);
    // Empty corpus: the documented 1% prior, shown with the latest (60 s) bucket while the mint is young.
    expect(probe.body).toMatchObject({ trades: 2, unique_buyers: 2, grad_prob: 0.01, grad_prob_age_bucket: 60 });
    // Flat, without the address (it is the path parameter): what the published clients read.
    expect(probe.body).not.toHaveProperty('mint');
  });

  it('delivers one graduation signal, takes DEX checkpoints and resolves graduated', async () => {
    jup.setMode('ok');
    const { mint, create, trade } = launch();
    await pipeline.handle([create, trade(100, 2_000_000_000)]);
    await new Promise((r) => setTimeout(r, 2500)); // after both scores: a late graduation
    await pipeline.handle([{ kind: 'complete', signature: b58(uniqueId('sig'), 88), ordinal: 0, slot: 1010, at: new Date(), source: 'test', mint }]);
    await pipeline.handle([{ kind: 'migrate', signature: b58(uniqueId('sig'), 88), ordinal: 0, slot: 1011, at: new Date(), source: 'test', mint, pool: null }]);
    const state = await waitResult(mint);
    await w.maybeRecordHistory(mintWorkflowId(mint), 'mint-late-graduation');
    expect(state.graduatedAt).not.toBeNull();
    expect(state.checkpoints.map((c) => c.afterS)).toEqual([1, 2]);
    expect(state.outcome).toMatchObject({ graduated: true });
    const cps = await t.db('post_grad_checkpoints').where({ mint });
    expect(cps).toHaveLength(2);
    // The local price server has no price for a test mint: recorded honestly as unknown, not as held.
    for (const c of cps) expect(c.held_80).toBeNull();
  });

  it('records checkpoints as unavailable when the price source is down', async () => {
    jup.setMode('down');
    const { mint, create, trade } = launch();
    await pipeline.handle([
      create,
      trade(100, 1_000_000_000),
      { kind: 'complete', signature: b58(uniqueId('sig'), 88), ordinal: 0, slot: 1010, at: new Date(), source: 'test', mint },
    ]);
    const state = await waitResult(mint);
    await w.maybeRecordHistory(mintWorkflowId(mint), 'mint-price-source-down');
    expect(state.checkpoints.every((c) => c.error !== null && c.heldAt80 === null)).toBe(true);
    const cps = await t.db('post_grad_checkpoints').where({ mint });
    expect(cps.map((c) => c.error)).toEqual(['price source answered HTTP 503', 'price source answered HTTP 503']);
    jup.setMode('ok');
  });

  it('answers a state query while the mint is live, and starts no workflow for mayhem mints', async () => {
    const { mint, create } = launch();
    await pipeline.handle([create]);
    const s = await w.client.workflow.getHandle(mintWorkflowId(mint)).query(stateQuery);
    expect(s.phase).toBe('scoring');
    const mayhem = launch();
    await pipeline.handle([{ ...mayhem.create, mayhem: true }]);
    await expect(w.client.workflow.getHandle(mintWorkflowId(mayhem.mint)).describe()).rejects.toThrow();
    await waitResult(mint);
  });

  // Last in this file: the seal only moves forward, so every later score here would be refused too.
  it('skips a score the ledger refuses (its hour already sealed), logs no row for it, and still resolves the mint', async () => {
    const { mint, create, trade } = launch();
    // As if the ledger had sealed the next hour already: the database refuses any prediction before it (LG001).
    await t
      .db('ledger_seals')
      .where({ track: 'grad_prob' })
      .update({ sealed_until: new Date(Date.now() + 3_600_000), updated_at: new Date() });
    await pipeline.handle([create, trade(100, 400_000_000)]);
    const state = await waitResult(mint);
    await w.maybeRecordHistory(mintWorkflowId(mint), 'mint-scores-refused-by-ledger');
    expect(state.scores).toEqual([
      { bucket: 30, status: 'skipped_late', gradProb: null, predictionId: null },
      { bucket: 60, status: 'skipped_late', gradProb: null, predictionId: null },
    ]);
    expect(state.outcome).toMatchObject({ graduated: false });
    expect(await t.db('predictions').where({ mint })).toEqual([]);
    expect(await t.db('mint_outcomes').where({ mint }).first()).toMatchObject({ graduated: false });
  });
});
