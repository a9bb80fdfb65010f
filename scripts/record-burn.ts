import { parseArgs } from 'node:util';
import { recordVerifiedBurn } from '../activities/billing/burn-recorder';
import { createBurnReader } from '../clients/solana/burn-transaction';
import { createBurnStore } from '../db/billing/burn-store';
import { loadConfig, requireSetting } from '../platform/config';
import { createDb } from '../platform/db';

/**
 * `npm run burn:record -- --signature <sig> --kind revenue_commitment --settles 3,4`: an operator records a holder-
 * token burn they executed. The transaction is read over SOLANA_RPC_URL and must burn HOLDER_TOKEN_MINT; the
 * listed pending obligations (ids from GET /api/burn/pending) are marked settled by it.
 */
async function main() {
  const { values } = parseArgs({ options: { signature: { type: 'string' }, kind: { type: 'string' }, settles: { type: 'string', default: '' } } });
  const kind = values.kind;
  if (!values.signature || (kind !== 'revenue_commitment' && kind !== 'payment_receipt')) {
    throw new Error('usage: --signature <tx signature> --kind revenue_commitment|payment_receipt [--settles id,id]');
  }
  const settles = values.settles ? values.settles.split(',').map((x) => Number(x.trim())) : [];
  if (settles.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--settles takes pending burn ids, e.g. 3,4');
  const cfg = loadConfig();
  const db = createDb(requireSetting(cfg.databaseUrl, 'DATABASE_URL'), 2);
  try {
    const r = await recordVerifiedBurn(
      { reader: createBurnReader({ url: cfg.ingest.solanaRpcUrl }), burnStore: createBurnStore(db), tokenMint: requireSetting(cfg.access.holder.mint, 'HOLDER_TOKEN_MINT'), now: () => new Date() },
      { signature: values.signature, kind, settles },
    );
    console.log(r.inserted ? `recorded burn #${r.id}: ${r.amountTokens} tokens` : `burn #${r.id} was already recorded`);
  } finally {
    await db.destroy();
  }
}

main().catch((e) => {
  console.error((e as Error).message);
  process.exit(1);
});
