import { parseArgs } from 'node:util';
import { loadConfig, requireSetting } from '../platform/config';
import { connectTemporalClient } from '../platform/temporal-connection';
import type { BurnRecordResult } from '../workflows/billing/burn-record-contract';
import { startBurnRecord } from '../workflows/billing/burn-record-starter';

/**
 * `npm run burn:record -- --signature <sig> --kind revenue_commitment --settles 3,4`: an operator records a holder-
 * token burn they executed. It starts the `burn:<signature>` workflow, which reads the transaction over
 * SOLANA_RPC_URL (retrying while the node does not serve it yet), checks it burned HOLDER_TOKEN_MINT, and settles
 * the listed pending obligations (ids from GET /api/burn/pending). Running it twice records the burn once.
 */
async function main() {
  const { values } = parseArgs({ options: { signature: { type: 'string' }, kind: { type: 'string' }, settles: { type: 'string', default: '' } } });
  const kind = values.kind;
  if (!values.signature || !/^[1-9A-HJ-NP-Za-km-z]{64,90}$/.test(values.signature) || (kind !== 'revenue_commitment' && kind !== 'payment_receipt')) {
    throw new Error('usage: --signature <base58 tx signature> --kind revenue_commitment|payment_receipt [--settles id,id]');
  }
  const settles = values.settles ? values.settles.split(',').map((x) => Number(x.trim())) : [];
  if (settles.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--settles takes pending burn ids, e.g. 3,4');
  const cfg = loadConfig();
  const client = await connectTemporalClient(requireSetting(cfg.temporal.address, 'TEMPORAL_ADDRESS'), cfg.temporal.namespace);
  try {
    const handle = await startBurnRecord(client, cfg.temporal.taskQueue, { signature: values.signature, kind, settles });
    console.log(`recording ${values.signature} as workflow ${handle.workflowId} (open it in the Temporal UI to follow its attempts)`);
    const r = (await handle.result()) as BurnRecordResult;
    console.log(r.inserted ? `recorded burn #${r.id}: ${r.amountTokens} tokens` : `burn #${r.id} was already recorded`);
  } finally {
    await client.connection.close();
  }
}

main().catch((e) => {
  console.error((e as Error).message);
  process.exit(1);
});
