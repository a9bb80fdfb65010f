import { parseArgs } from 'node:util';
import { WorkflowFailedError } from '@temporalio/client';
import { loadConfig, requireSetting } from '../platform/config';
import { connectTemporalClient } from '../platform/temporal-connection';
import { driftImportProgressQuery, type DriftImportInput, type DriftImportProgress } from '../workflows/perps/drift-import-contract';
import { startDriftImport } from '../workflows/perps/drift-import-starter';

const USAGE = `usage: npm run perps:import -- [--market SOL-PERP]… [--from yyyy-mm-dd] [--to yyyy-mm-dd] [--refresh] [--concurrency N] [--no-wait]
  defaults: PERPS_IMPORT_MARKETS, PERPS_IMPORT_FROM, PERPS_IMPORT_TO, PERPS_IMPORT_CONCURRENCY; the bucket is DRIFT_DATA_URL.`;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `npm run perps:import -- --market SOL-PERP --from 2024-01-01 --to 2024-12-31`: imports exchange_a's (Drift's)
 * day files for each market and range as a workflow `perps-import:<market>:<from>:<to>` (one child per file),
 * printing its progress until it is done. Stopping this command does not stop the import; running it again joins
 * the running import, or after it finished re-checks the range (files already imported are skipped unless
 * --refresh, which re-reads them: the same checksum changes nothing). Needs TEMPORAL_ADDRESS and a running worker.
 */
async function main() {
  const { values } = parseArgs({
    options: {
      market: { type: 'string', multiple: true },
      from: { type: 'string' },
      to: { type: 'string' },
      refresh: { type: 'boolean', default: false },
      concurrency: { type: 'string' },
      'no-wait': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return void console.log(USAGE);
  const cfg = loadConfig();
  const a = cfg.perps.drift;
  const from = values.from ?? a.importFrom;
  const to = values.to ?? a.importTo;
  const concurrency = Number(values.concurrency ?? a.importConcurrency);
  if (!DAY.test(from) || !DAY.test(to) || from > to || !Number.isInteger(concurrency) || concurrency < 1) throw new Error(USAGE);
  const markets = values.market?.length ? values.market : a.importMarkets;
  const client = await connectTemporalClient(requireSetting(cfg.temporal.address, 'TEMPORAL_ADDRESS'), cfg.temporal.namespace);
  try {
    const handles = [];
    for (const market of markets) {
      const input: DriftImportInput = { market, from, to, concurrency, refresh: values.refresh };
      const h = await startDriftImport(client, cfg.temporal.taskQueue, input);
      console.log(`${market} ${from} … ${to}: workflow ${h.workflowId} (from ${a.baseUrl})`);
      handles.push({ market, h });
    }
    if (values['no-wait']) return;
    for (const { market, h } of handles) {
      const timer = setInterval(() => {
        void h
          .query(driftImportProgressQuery)
          .then((p) => console.log(`${market}: ${line(p)}`))
          .catch(() => undefined);
      }, 5000);
      try {
        const p = (await h.result()) as DriftImportProgress;
        console.log(`${market}: done: ${line(p)}`);
        for (const e of p.errors) console.log(`  ${e.date}: ${e.error}`);
      } catch (e) {
        if (!(e instanceof WorkflowFailedError)) throw e;
        console.error(`${market}: the import failed: ${e.cause?.message ?? e.message}`);
        process.exitCode = 1;
      } finally {
        clearInterval(timer);
      }
    }
  } finally {
    await client.connection.close();
  }
}

function line(p: DriftImportProgress): string {
  return `${p.phase}, ${p.done}/${p.days} days: ${p.imported} imported, ${p.skipped} already imported, ${p.unchanged} unchanged, ${p.missing} missing, ${p.corrupt} corrupt, ${p.failed} failed; ${p.rows} rows, ${p.tradersRefreshed} traders recomputed`;
}

main().catch((e) => {
  console.error((e as Error).message);
  process.exit(1);
});
