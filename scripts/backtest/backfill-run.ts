import { SingleBar, Presets } from 'cli-progress';
import { createBackfillStore } from '../../db/history/backfill-store';
import { backfillChunks, backfillRangeId, chunkFraction } from '../../domain/history/backfill-range';
import type { Config } from '../../platform/config';
import { requireSetting } from '../../platform/config';
import { connectTemporalClient } from '../../platform/temporal-connection';
import type { HistoryBackfillProgress } from '../../workflows/history/history-backfill-contract';
import { startHistoryBackfill } from '../../workflows/history/history-backfill-starter';
import type { KnexDb } from '../../db/knex-handle';

/** Share of a range read and its figures so far, from the progress rows in Postgres (whichever worker wrote them). */
export async function rangeStatus(db: KnexDb, fromMs: number, toMs: number, chunkS: number) {
  const chunks = backfillChunks(fromMs, toMs, chunkS);
  const rows = await createBackfillStore(db).rangeProgress(backfillRangeId(fromMs, toMs));
  let fraction = 0;
  for (const r of rows) {
    const c = { fromMs: r.fromAt.getTime(), toMs: r.toAt.getTime() };
    fraction += chunkFraction(c, r.oldestBlockTime?.getTime() ?? null, r.completedAt !== null) * ((c.toMs - c.fromMs) / (toMs - fromMs));
  }
  const sum = (k: 'transactionsDecoded' | 'launches' | 'trades' | 'requests') => rows.reduce((n, r) => n + r[k], 0);
  return {
    fraction,
    chunks: chunks.length,
    chunksDone: rows.filter((r) => r.completedAt).length,
    transactions: sum('transactionsDecoded'),
    launches: sum('launches'),
    trades: sum('trades'),
    requests: sum('requests'),
  };
}

/**
 * Starts (or joins) the backfill of [from, to) on the configured Temporal and waits for it, drawing a progress bar on
 * stderr from the stored progress every second. The work itself runs in the workers: this process may be stopped
 * and started again at any time.
 */
export async function runBackfill(cfg: Config, db: KnexDb, fromMs: number, toMs: number): Promise<HistoryBackfillProgress> {
  const b = cfg.history.backfill;
  const client = await connectTemporalClient(requireSetting(cfg.temporal.address, 'TEMPORAL_ADDRESS'), cfg.temporal.namespace);
  const bar = new SingleBar(
    // Drawn in a log too (no terminal), once a second.
    {
      stream: process.stderr,
      hideCursor: true,
      noTTYOutput: true,
      notTTYSchedule: 1000,
      format: ' {bar} {percentage}% | chunks {done}/{chunks} | {txs} txs, {launches} launches, {trades} trades | {requests} requests',
    },
    Presets.shades_classic,
  );
  try {
    const handle = await startHistoryBackfill(client, cfg.temporal.taskQueue, { fromMs, toMs, chunkS: b.chunkS, pageSize: b.pageSize });
    console.error(`backfill ${handle.workflowId} (its chunks are child workflows in the Temporal UI)`);
    bar.start(1000, 0, { done: 0, chunks: 0, txs: 0, launches: 0, trades: 0, requests: 0 });
    const draw = async () => {
      const s = await rangeStatus(db, fromMs, toMs, b.chunkS);
      bar.update(Math.round(s.fraction * 1000), {
        done: s.chunksDone,
        chunks: s.chunks,
        txs: s.transactions,
        launches: s.launches,
        trades: s.trades,
        requests: s.requests,
      });
    };
    const timer = setInterval(() => void draw().catch(() => undefined), 1000);
    try {
      const result = (await handle.result()) as HistoryBackfillProgress;
      await draw();
      return result;
    } finally {
      clearInterval(timer);
    }
  } finally {
    bar.stop();
    await client.connection.close();
  }
}
