import { createMemoReader } from '../../clients/solana/memo-anchor-client';
import { anchorMemo } from '../../domain/ledger/anchor-memo';
import { commitRecordDigestHex } from '../../domain/ledger/commit-record';
import { verifyProofDocument, type ProofDocument } from '../../domain/ledger/ledger-proof';

/** One published commit as /api/ledger/commits serves it (openapi.yaml `LedgerCommit`), the fields checked here. */
type PublishedCommit = {
  track: string;
  hour_start: string;
  leaf_version: number;
  leaf_count: number;
  first_prediction_id: number;
  last_prediction_id: number;
  merkle_root_hex: string;
  prev_root_hex: string | null;
  record_digest_hex: string;
  anchor: { status: string; memo: string; signature: string | null; signer: string | null };
};

export type ProofCheck = { ok: boolean; lines: string[] };

async function getJson(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

/**
 * What `npm run verify-proof` checks, over HTTP only, as any outsider could: the proof of `predictionId` walks to
 * its root; the root, hour and leaf count are those of the hour's commit in the published list; that commit's record
 * digest matches its fields; and with `rpcUrl`, the commit's anchor transaction on Solana carries exactly the memo
 * naming this root and was signed by the published signer.
 */
export async function checkPublishedProof(o: { baseUrl: string; predictionId: number; rpcUrl?: string; track?: string }): Promise<ProofCheck> {
  const lines: string[] = [];
  const fail = (why: string): ProofCheck => ({ ok: false, lines: [...lines, `FAIL ${why}`] });
  const base = o.baseUrl.replace(/\/+$/, '');
  // Without a track the service answers its default (grad_prob), as an outsider reading the spec would ask.
  const track = o.track ? `track=${encodeURIComponent(o.track)}` : '';

  const p = await getJson(`${base}/api/ledger/proof/${o.predictionId}${track ? `?${track}` : ''}`);
  if (p.status !== 200) return fail(`proof of ${o.predictionId}: HTTP ${p.status} ${JSON.stringify(p.body)}`);
  const doc = p.body as ProofDocument;
  const hourUnix = Date.parse(doc.hour) / 1000;
  const list = await getJson(`${base}/api/ledger/commits?since=${hourUnix - 1}&limit=1${track ? `&${track}` : ''}`);
  const commit = (list.body?.commits as PublishedCommit[] | undefined)?.find((c) => c.hour_start === doc.hour);
  if (!commit) return fail(`no published commit for the hour ${doc.hour}`);

  const verdict = verifyProofDocument(doc, {
    track: commit.track,
    hourStart: new Date(commit.hour_start),
    leafCount: commit.leaf_count,
    rootHex: commit.merkle_root_hex,
  });
  if (!verdict.ok) return fail(`proof: ${verdict.problem}`);
  lines.push(`OK   proof: ${doc.track} v${doc.leaf_version} leaf ${doc.leaf_index}/${doc.leaf_count} walks to root ${commit.merkle_root_hex} (${doc.hour})`);

  const digest = commitRecordDigestHex({
    track: commit.track,
    hourStart: new Date(commit.hour_start),
    leafVersion: commit.leaf_version,
    leafCount: commit.leaf_count,
    firstId: commit.first_prediction_id,
    lastId: commit.last_prediction_id,
    rootHex: commit.merkle_root_hex,
    prevRootHex: commit.prev_root_hex,
  });
  if (digest !== commit.record_digest_hex) return fail(`commit record digest ${commit.record_digest_hex} does not match its fields (${digest})`);
  lines.push(`OK   commit record digest ${digest}, previous root ${commit.prev_root_hex ?? '(first commit)'}`);

  if (!o.rpcUrl) return { ok: true, lines };
  const a = commit.anchor;
  if (a.status !== 'confirmed' || !a.signature || !a.signer) return fail(`the commit is not anchored on chain (anchor status ${a.status})`);
  const memo = anchorMemo({ track: commit.track, hourStart: new Date(commit.hour_start), rootHex: commit.merkle_root_hex });
  const tx = await createMemoReader({ url: o.rpcUrl }).transaction(a.signature);
  if (!tx) return fail(`anchor transaction ${a.signature} is not served by ${new URL(o.rpcUrl).host}`);
  if (tx.err !== null) return fail(`anchor transaction ${a.signature} failed on chain`);
  if (!tx.memos.includes(memo)) return fail(`anchor transaction ${a.signature} does not carry the memo ${memo}`);
  if (!tx.signers.includes(a.signer)) return fail(`anchor transaction ${a.signature} is not signed by ${a.signer}`);
  const at = tx.blockTime === null ? 'unknown time' : new Date(tx.blockTime * 1000).toISOString();
  lines.push(`OK   anchor: memo in transaction ${a.signature} at slot ${tx.slot}, ${at}, signed by ${a.signer}`);
  return { ok: true, lines };
}
