import { parseArgs } from 'node:util';
import { loadConfig, requireSetting } from '../platform/config';
import { connectTemporalClient } from '../platform/temporal-connection';
import type { WalletRebuildProgress } from '../workflows/wallets/wallet-rebuild-contract';
import { startWalletRebuild } from '../workflows/wallets/wallet-rebuild-starter';

/**
 * `npm run wallets:rebuild -- --id <rebuild id> [--version smart-v2 --prior-graduation 0.02 --prior-rug 0.3
 * --strength 10]`: an operator rebuilds the wallet index from the trades table (a repaired label, a new contribution
 * definition) and, with `--version`, publishes a new smart score version with those priors when it swaps in. It
 * starts `wallet-index-rebuild:<id>` (the same id again joins the running rebuild) and waits; the API keeps serving
 * the live index meanwhile. Progress: the workflow's `progress` query and memo in the Temporal UI.
 */
async function main() {
  const { values } = parseArgs({
    options: {
      id: { type: 'string' },
      version: { type: 'string' },
      'prior-graduation': { type: 'string' },
      'prior-rug': { type: 'string' },
      strength: { type: 'string' },
      'batches-per-run': { type: 'string', default: '200' },
    },
  });
  if (!values.id || !/^[a-z0-9-]{1,64}$/.test(values.id))
    throw new Error('usage: --id <rebuild id, a-z 0-9 -> [--version smart-vN --prior-graduation p --prior-rug p --strength k]');
  const scoreVersion = values.version
    ? {
        id: values.version,
        priorGraduationRate: Number(values['prior-graduation']),
        priorRugRate: Number(values['prior-rug']),
        priorStrength: Number(values.strength),
      }
    : null;
  const cfg = loadConfig();
  const client = await connectTemporalClient(requireSetting(cfg.temporal.address, 'TEMPORAL_ADDRESS'), cfg.temporal.namespace);
  try {
    const handle = await startWalletRebuild(client, cfg.temporal.taskQueue, {
      rebuildId: values.id,
      scoreVersion,
      batchMints: cfg.wallets.rebuildBatchMints,
      // Mints resolved before the index existed were never applied: read them to the product's 24 h horizon.
      defaultHorizonS: 24 * 3600,
      batchesPerRun: Number(values['batches-per-run']),
    });
    console.log(`rebuilding as workflow ${handle.workflowId} (its progress query and memo show where it is in the Temporal UI)`);
    const r = (await handle.result()) as WalletRebuildProgress;
    console.log(`done: ${r.mintsDone} mints, ${r.wallets} wallets, ${r.caughtUp} caught up, score version ${r.scoreVersion}`);
  } finally {
    await client.connection.close();
  }
}

main().catch((e) => {
  console.error((e as Error).message);
  process.exit(1);
});
