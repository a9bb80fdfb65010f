import type { PaperPosition } from '../../../domain/paper/paper-position';
import { ensurePaperEntries } from '../../../workflows/paper/paper-entries-starter';
import { ensurePaperPricer } from '../../../workflows/paper/paper-pricer-starter';
import { paperPositionWorkflowId, type PaperPositionResult } from '../../../workflows/paper/paper-position-contract';
import { logScore, paperLaunch, waitFor } from '../../support/paper-market';
import { createTestDatabase } from '../../support/test-db';
import { startWorker, uniqueId } from '../../support/worker-harness';

let t: Awaited<ReturnType<typeof createTestDatabase>>;
const entriesId = uniqueId('paper-entries');
const pricerId = uniqueId('paper-pricer');
// A bankroll of 0.25 SOL holds two 0.1 SOL positions per strategy; the stale limit and timeout are far away.
// The pricer ticks every 200 ms.
const env = {
  PAPER_BANKROLL_SOL: '0.25',
  PAPER_STALE_AFTER_S: '600',
  PAPER_TIMEOUT_S: '600',
  TEMPORAL_TASK_QUEUE: uniqueId('paper-restart'),
};

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

const rowsOf = (mint: string) => t.db('paper_positions').where({ mint }).orderBy('strategy');

describe('paper positions survive a worker restart', () => {
  it('keeps every open position, closes it after the restart, and never enters twice or past the cash', async () => {
    const w1 = await startWorker(t.db, { env });
    await ensurePaperEntries(w1.client, env.TEMPORAL_TASK_QUEUE, 200, { workflowId: entriesId });
    await ensurePaperPricer(w1.client, env.TEMPORAL_TASK_QUEUE, 200, { workflowId: pricerId });
    const launches = [];
    for (let i = 0; i < 3; i++) {
      const l = paperLaunch(t.db, new Date(Date.now() - 30_000));
      await l.write([l.create, l.trade(5_000, 3_000_000_000)]);
      // Scores a few ms apart, so the entry order (the score's moment) is the launch order.
      await logScore(t.db, l.mint, 30, new Date(Date.now() - 10 + i), 0.95);
      launches.push(l);
    }
    const [a, b, c] = launches as [(typeof launches)[number], (typeof launches)[number], (typeof launches)[number]];
    const decisions = await waitFor(async () => {
      const d = await t.db('paper_entry_decisions').whereIn('strategy', ['gp90']);
      return d.length === 3 && d;
    });
    // Cash for two positions: the third score, judged last, is refused.
    const byMint = new Map(
      await t
        .db('paper_entry_decisions as d')
        .join('predictions as p', 'p.id', 'd.prediction_id')
        .where('d.strategy', 'gp90')
        .select('p.mint', 'd.decision')
        .then((r) => r.map((x) => [x.mint, x.decision])),
    );
    expect([byMint.get(a.mint), byMint.get(b.mint), byMint.get(c.mint)]).toEqual(['entered', 'entered', 'bankroll_too_small']);
    expect(decisions).toHaveLength(3);
    await waitFor(async () => (await t.db('paper_positions').whereNotNull('workflow_started_at')).length === 6);

    // The worker dies with six positions open; meanwhile the first mint is dumped on the curve.
    await w1.stop();
    const before = await rowsOf(a.mint);
    expect(before.map((r) => r.state)).toEqual(['open', 'open', 'open']);
    await a.tradeNow(-8_000_000_000);

    const w2 = await startWorker(t.db, { env });
    try {
      const results = await Promise.all(
        (['gp70', 'gp80', 'gp90'] as const).map(
          (s) => w2.client.workflow.getHandle(paperPositionWorkflowId(s, a.mint)).result() as Promise<PaperPositionResult>,
        ),
      );
      for (const r of results) expect(r.position.exit?.reason).toBe('stop_loss');
      await w2.maybeRecordHistory(paperPositionWorkflowId('gp70', a.mint), 'paper-position-stop-loss-after-restart');
      const after = await rowsOf(a.mint);
      expect(after.map((r) => [r.id, r.state, r.exit_reason])).toEqual(before.map((r) => [r.id, 'closed', 'stop_loss']));
      // The second mint's positions are still open and ticking under the new worker.
      const open = await rowsOf(b.mint);
      expect(open.map((r) => r.state)).toEqual(['open', 'open', 'open']);
      await waitFor(async () => (await rowsOf(b.mint)).every((r, i) => r.last_quote_at > open[i].last_quote_at));
      // The entry loop resumed too and judged nothing twice: one decision per (score, strategy), six positions.
      expect(await t.db('paper_entry_decisions').count('* as n').first()).toEqual({ n: 9 });
      expect(await t.db('paper_positions').count('* as n').first()).toEqual({ n: 6 });
      // New scores after the restart for a mint whose positions closed and one whose positions are open: judged by the
      // new worker's entry loop, and never entered a second time.
      const again = [await logScore(t.db, a.mint, 60, new Date(), 0.95), await logScore(t.db, b.mint, 60, new Date(), 0.95)];
      const judged = await waitFor(async () => {
        const d = await t.db('paper_entry_decisions').whereIn('prediction_id', again);
        return d.length === 6 && d;
      });
      expect(judged.map((x) => x.decision)).toEqual(Array(6).fill('already_entered'));
      expect(await t.db('paper_positions').count('* as n').first()).toEqual({ n: 6 });
      const stopped: PaperPosition = results[0]!.position;
      expect(stopped.exit!.fill.venue).toBe('curve');
      expect(stopped.exit!.fill.proceedsLamports - stopped.entry.fill.solSpentLamports).toBeLessThanOrEqual(-0.25 * stopped.entry.fill.solSpentLamports);
    } finally {
      await w2.client.workflow.getHandle(entriesId).terminate('test over');
      await w2.client.workflow.getHandle(pricerId).terminate('test over');
      for (const s of ['gp70', 'gp80', 'gp90'] as const) await w2.client.workflow.getHandle(paperPositionWorkflowId(s, b.mint)).terminate('test over');
      await w2.stop();
    }
  });
});
