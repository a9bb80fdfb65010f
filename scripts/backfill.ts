import { parseArgs } from 'node:util';
import { parseBackfillRange } from '../domain/history/backfill-range';
import { loadConfig, requireSetting } from '../platform/config';
import { createDb } from '../platform/db';
import { rangeStatus, runBackfill } from './backtest/backfill-run';
import { asDb } from '../db/knex-handle';

/**
 * `npm run backfill -- --from <time> --to <time>`: reads the launchpad's history of [from, to) from the configured
 * Solana node (HISTORY_BACKFILL_RPC_URL) into the same tables as the live feed, as Temporal workflows the running
 * workers execute, and shows a progress bar until it is done. The same range again joins it or, finished, reads
 * nothing twice. Times are ISO (`2026-11-20T00:00Z`) or dates (UTC midnight); `to` stays HISTORY_BACKFILL_LAG_S
 * before now.
 */
async function main() {
  const { values } = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' } } });
  if (!values.from || !values.to) throw new Error('usage: npm run backfill -- --from <time> --to <time>');
  const cfg = loadConfig();
  const { fromMs, toMs } = parseBackfillRange(`${values.from}..${values.to}`, Date.now(), cfg.history.backfill.lagS);
  const db = asDb(createDb(requireSetting(cfg.databaseUrl, 'DATABASE_URL'), 2));
  try {
    await runBackfill(cfg, db, fromMs, toMs);
    const s = await rangeStatus(db, fromMs, toMs, cfg.history.backfill.chunkS);
    const hours = (toMs - fromMs) / 3_600_000;
    console.log(
      `done: ${s.transactions} transactions, ${s.launches} launches, ${s.trades} trades in ${hours.toFixed(1)} h of history; ${s.requests} RPC requests (${Math.round((s.requests / hours) * 24)} per day of history)`,
    );
  } finally {
    await db.destroy();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
