import { parseArgs } from 'node:util';
import { checkPublishedProof } from './lib/ledger-proof-check';

/**
 * `npm run verify-proof -- <base-url> <prediction_id> [--track <track>] [--rpc <solana-json-rpc-url>]`: fetches a row's
 * inclusion proof (on `track`, default grad_prob: the id is then a prediction's) and its hour's commit from a running service and checks them with this repository's ledger code
 * (test/verifiers/verify_proof.py is the independent check); with `--rpc`, also reads the commit's anchor
 * transaction from that Solana node and checks its memo and signer. Exit status 0 when every check passes.
 */
async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { rpc: { type: 'string' }, track: { type: 'string' } } });
  const [baseUrl, id] = positionals;
  const predictionId = Number(id);
  if (!baseUrl || !/^https?:\/\//.test(baseUrl) || !Number.isSafeInteger(predictionId) || predictionId < 1 || positionals.length !== 2) {
    console.error('usage: npm run verify-proof -- <base-url> <prediction_id> [--track <track>] [--rpc <solana-json-rpc-url>]');
    return 2;
  }
  const r = await checkPublishedProof({ baseUrl, predictionId, rpcUrl: values.rpc, track: values.track });
  for (const line of r.lines) console.log(line);
  return r.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`verify-proof: ${(e as Error).message}`);
    process.exit(1);
  },
);
