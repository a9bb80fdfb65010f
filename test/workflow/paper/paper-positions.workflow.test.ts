import type { PaperPosition } from '../../../domain/paper/paper-position';
import { ensurePaperEntries } from '../../../workflows/paper/paper-entries-starter';
import { PAPER_ENTRIES_WORKFLOW, type PaperEntriesInput } from '../../../workflows/paper/paper-entries-contract';
import { paperPositionWorkflowId, positionQuery, type PaperPositionResult } from '../../../workflows/paper/paper-position-contract';
import { PAPER_PRICER_WORKFLOW, type PaperPricerInput } from '../../../workflows/paper/paper-pricer-contract';
import { ensurePaperPricer } from '../../../workflows/paper/paper-pricer-starter';
import { startJupiterPriceServer } from '../../fakes/jupiter-price-server';
import { logScore, paperLaunch, waitFor } from '../../support/paper-market';
import { createTestDatabase } from '../../support/test-db';
import { startWorker, uniqueId } from '../../support/worker-harness';

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let jup: Awaited<ReturnType<typeof startJupiterPriceServer>>;
let w: Awaited<ReturnType<typeof startWorker>>;
let env: Record<string, string>;
const entriesId = uniqueId('paper-entries');
const pricerId = uniqueId('paper-pricer');

// The pricer ticks every 200 ms; a price unseen for 2 s is stale; the timeout is far away unless a test is about it.
beforeAll(async () => {
  t = await createTestDatabase();
  jup = await startJupiterPriceServer();
  env = {
    PRICE_SOURCE_URL: jup.url,
    PAPER_STALE_AFTER_S: '2',
    PAPER_TIMEOUT_S: '120',
    TEMPORAL_TASK_QUEUE: uniqueId('paper'),
  };
  w = await startWorker(t.db, { env });
  await ensurePaperEntries(w.client, env.TEMPORAL_TASK_QUEUE!, 200, { workflowId: entriesId });
  await ensurePaperPricer(w.client, env.TEMPORAL_TASK_QUEUE!, 200, { workflowId: pricerId });
});
afterAll(async () => {
  await w.client.workflow.getHandle(entriesId).terminate('test over');
  await w.client.workflow.getHandle(pricerId).terminate('test over');
  await w.stop();
  await jup.close();
  await t.drop();
});

const rowOf = (strategy: string, mint: string) => t.db('paper_positions').where({ strategy, mint }).first();
const result = (strategy: 'gp70' | 'gp80' | 'gp90', mint: string): Promise<PaperPositionResult> =>
  w.client.workflow.getHandle(paperPositionWorkflowId(strategy, mint)).result();

/** A launch with a few buys, scored at 30 s (now) with `gradProb`. */
async function scoredLaunch(gradProb: number) {
  const l = paperLaunch(t.db, new Date(Date.now() - 30_000));
  await l.write([l.create, l.trade(5_000, 2_000_000_000), l.trade(20_000, 1_000_000_000)]);
  const predictionId = await logScore(t.db, l.mint, 30, new Date(), gradProb);
  return { ...l, predictionId };
}

/** The token price in USD that makes the DEX value of the position `mult` × what it cost (SOL at the recorded USD price). */
const usdFor = (p: PaperPosition, mult: number) => p.entry.fill.effectivePriceSol * mult * jup.capturedSolUsd;

describe('paper positions: entry, pricing across graduation, exits', () => {
  it('enters the strategies the score reaches, prices on the curve, then after graduation at the DEX price, and takes profit there', async () => {
    jup.setMode('ok');
    const l = await scoredLaunch(0.85);
    const gp70 = await waitFor(() => rowOf('gp70', l.mint));
    await waitFor(() => rowOf('gp80', l.mint));
    // gp90 judged the score and did not enter: below its threshold.
    const decisions = await waitFor(async () => {
      const d = await t.db('paper_entry_decisions').where({ prediction_id: l.predictionId }).orderBy('strategy');
      return d.length === 3 && d;
    });
    expect(decisions.map((d) => [d.strategy, d.decision])).toEqual([
      ['gp70', 'entered'],
      ['gp80', 'entered'],
      ['gp90', 'below_threshold'],
    ]);
    expect(await rowOf('gp90', l.mint)).toBeUndefined();

    // Filled on the curve at the reserves after the last trade before the score, fees included, with its slippage.
    const p: PaperPosition = gp70.position;
    expect(p.entry.fill.before).toEqual(
      await t
        .db('trades')
        .where({ mint: l.mint })
        .orderBy('at', 'desc')
        .first()
        .then((r) => ({ vSolLamports: r.v_sol_lamports, vTokensRaw: r.v_tokens_raw })),
    );
    expect(p.entry.fill.solSpentLamports).toBeLessThanOrEqual(100_000_000);
    expect(p.entry.fill.feeLamports).toBeGreaterThan(0);
    expect(p.entry.fill.slippage).toBeGreaterThan(0);
    // The entry snapshot is the enriched mint as the probe serves it, with the score that triggered the entry.
    // Under the name that holds at any age: a loaded machine may enter after the 30 s score's display window.
    expect(gp70.entry_snapshot).toMatchObject({ mint: l.mint, last_logged_grad_prob: 0.85, last_logged_grad_prob_age_bucket: 30 });
    expect(gp70.workflow_id).toBe(`paper:gp70:${l.mint}`);

    // On the curve: a buy by someone else moves the mark (the stored last quote follows the new reserves).
    await l.tradeNow(1_500_000_000);
    const marked = await waitFor(async () => {
      const r = await rowOf('gp70', l.mint);
      return (
        r.position.lastQuote.quote.kind === 'curve' &&
        r.position.lastQuote.quote.reserves.vSolLamports === p.entry.fill.before.vSolLamports + 1_500_000_000 &&
        r
      );
    });
    expect(marked.state).toBe('open');

    // Graduation: the DEX quotes the token at 1.5× the entry price; the sale there clears +20% after impact and fee.
    jup.setTokenUsd(l.mint, usdFor(p, 1.5));
    await l.graduate();
    const r70 = await result('gp70', l.mint);
    await w.maybeRecordHistory(paperPositionWorkflowId('gp70', l.mint), 'paper-position-take-profit-dex');
    const r80 = await result('gp80', l.mint);
    for (const r of [r70, r80]) {
      expect(r.position.exit).toMatchObject({ reason: 'take_profit', fill: { venue: 'dex', impactModel: 'constant_product' } });
      expect(r.position.exit!.fill.slippage).toBeGreaterThan(0);
    }
    const closed = await rowOf('gp70', l.mint);
    expect(closed).toMatchObject({ state: 'closed', exit_reason: 'take_profit' });
    expect(closed.pnl_lamports).toBe(r70.position.exit!.fill.proceedsLamports - p.entry.fill.solSpentLamports);
    expect(closed.pnl_lamports / p.entry.fill.solSpentLamports).toBeGreaterThanOrEqual(0.2);
  });

  it('closes at the last usable price as stale_price when the price source is down after graduation', async () => {
    const l = await scoredLaunch(0.95);
    const row = await waitFor(() => rowOf('gp90', l.mint));
    // Wait for a tick to have marked it on the curve, then the curve completes and the DEX source goes down.
    await waitFor(async () => (await rowOf('gp90', l.mint)).last_quote_at > row.last_quote_at);
    jup.setMode('down');
    const lastCurve: PaperPosition = (await rowOf('gp90', l.mint)).position;
    await l.graduate();
    const r = await result('gp90', l.mint);
    jup.setMode('ok');
    await w.maybeRecordHistory(paperPositionWorkflowId('gp90', l.mint), 'paper-position-stale-price');
    const x = r.position.exit!;
    expect(x.reason).toBe('stale_price');
    // Priced at the last usable quote, the curve's, and the exit says when that quote was seen.
    expect(x.fill.venue).toBe('curve');
    expect(x.quoteAtMs).toBeLessThan(x.atMs - 2000 + 1);
    expect(x.quoteAtMs).toBeGreaterThanOrEqual(lastCurve.lastQuote.atMs);
    expect(jup.requests()).toBeGreaterThan(0);
  });

  it('never enters a strategy twice for a mint', async () => {
    const l = await scoredLaunch(0.75);
    await waitFor(() => rowOf('gp70', l.mint));
    // The 60 s score reaches the threshold again: judged, not entered.
    const second = await logScore(t.db, l.mint, 60, new Date(), 0.8);
    const d = await waitFor(() => t.db('paper_entry_decisions').where({ prediction_id: second, strategy: 'gp70' }).first());
    expect(d.decision).toBe('already_entered');
    const d80 = await waitFor(() => t.db('paper_entry_decisions').where({ prediction_id: second, strategy: 'gp80' }).first());
    expect(d80.decision).toBe('entered');
    expect(await t.db('paper_positions').where({ mint: l.mint }).count('* as n').first()).toEqual({ n: 2 });
  });

  it('closes a curve position at its last usable price as stale_price when the trade tape stops (the ingest is down)', async () => {
    const l = await scoredLaunch(0.95);
    const row = await waitFor(() => rowOf('gp90', l.mint));
    // The ingest's feed reports a flowing tape: the position goes on being marked on the curve.
    const feed = uniqueId('tape');
    const report = (ago: number) => ({
      feed,
      stats: JSON.stringify({ name: feed, lastEventAt: new Date(Date.now() - ago).toISOString() }),
      updated_at: new Date(),
    });
    await t.db('ingest_feed_stats').insert(report(1_000));
    try {
      await waitFor(async () => (await rowOf('gp90', l.mint)).last_quote_at > row.last_quote_at);
      const marked = await rowOf('gp90', l.mint);
      expect(marked.state).toBe('open');
      // Its last event is now ten minutes old, past the 90 s limit: the curve gives no price, and 2 s without one closes.
      await t.db('ingest_feed_stats').where({ feed }).update(report(600_000));
      const closed = await waitFor(async () => {
        const r = await rowOf('gp90', l.mint);
        return r.state === 'closed' && r;
      });
      expect(closed.exit_reason).toBe('stale_price');
      const x = (closed.position as PaperPosition).exit!;
      expect(x.fill.venue).toBe('curve');
      expect(x.quoteAtMs).toBeGreaterThanOrEqual((marked.last_quote_at as Date).getTime());
      expect(x.quoteAtMs).toBeLessThanOrEqual(x.atMs - 2000);
    } finally {
      await t.db('ingest_feed_stats').where({ feed }).del();
    }
  });
});

describe('paper workflows continue as new', () => {
  it('a second entry loop continues as new with its input, and judges nothing twice beside the first', async () => {
    const workflowId = uniqueId('paper-entries-can');
    const input: PaperEntriesInput = { pollMs: 200, iterationsPerRun: 3 };
    const handle = await w.client.workflow.start(PAPER_ENTRIES_WORKFLOW, { taskQueue: env.TEMPORAL_TASK_QUEUE!, workflowId, args: [input] });
    const first = w.client.workflow.getHandle(workflowId, handle.firstExecutionRunId);
    try {
      const l = await scoredLaunch(0.72);
      await waitFor(async () => (await first.describe()).status.name === 'CONTINUED_AS_NEW');
      await w.maybeRecordHistory(workflowId, 'paper-entries-continued-as-new', handle.firstExecutionRunId);
      const d = await waitFor(async () => {
        const rows = await t.db('paper_entry_decisions').where({ prediction_id: l.predictionId });
        return rows.length === 3 && rows;
      });
      expect(d.map((x) => x.decision).sort()).toEqual(['below_threshold', 'below_threshold', 'entered']);
      expect((await handle.describe()).status.name).toBe('RUNNING');
    } finally {
      await handle.terminate('test over');
    }
  });

  it('the pricer continues as new with its input and goes on pricing', async () => {
    const l = await scoredLaunch(0.95);
    const row = await waitFor(() => rowOf('gp70', l.mint));
    // A second pricer beside the first, three rounds per run (the real one runs 500): rounds are idempotent.
    const workflowId = uniqueId('paper-pricer-can');
    const input: PaperPricerInput = { tickMs: 200, iterationsPerRun: 3 };
    const handle = await w.client.workflow.start(PAPER_PRICER_WORKFLOW, { taskQueue: env.TEMPORAL_TASK_QUEUE!, workflowId, args: [input] });
    const first = w.client.workflow.getHandle(workflowId, handle.firstExecutionRunId);
    try {
      await waitFor(async () => (await first.describe()).status.name === 'CONTINUED_AS_NEW');
      const history = await first.fetchHistory();
      const last = history.events![history.events!.length - 1]!;
      expect(JSON.parse(Buffer.from(last.workflowExecutionContinuedAsNewEventAttributes!.input!.payloads![0]!.data!).toString())).toEqual(input);
      await w.maybeRecordHistory(workflowId, 'paper-pricer-continued-as-new', handle.firstExecutionRunId);
      expect((await handle.describe()).status.name).toBe('RUNNING');
      // The position goes on being marked, and its workflow still holds it open.
      await waitFor(async () => (await rowOf('gp70', l.mint)).last_quote_at > row.last_quote_at);
      const held = await w.client.workflow.getHandle(paperPositionWorkflowId('gp70', l.mint)).query(positionQuery);
      expect(held.exit).toBeNull();
    } finally {
      await handle.terminate('test over');
    }
  });
});
