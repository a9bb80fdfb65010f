import type { StoredCommit } from '../../db/ledger/ledger-commit-store';
import { anchorMemo } from '../../domain/ledger/anchor-memo';
import { utcHourEnd } from '../../domain/ledger/ledger-hour';

/** How a commit's anchor stands: `confirmed` on chain, `sending` (a memo transaction is out), or `none`. */
export function anchorView(c: StoredCommit) {
  const a = c.anchor;
  return {
    status: a ? 'confirmed' : c.anchorSent ? 'sending' : 'none',
    memo: a?.memo ?? anchorMemo({ track: c.track, hourStart: c.hourStart, rootHex: c.rootHex }),
    signature: a?.signature ?? null,
    slot: a?.slot ?? null,
    block_time: a?.blockTime ? a.blockTime.toISOString() : null,
    signer: a?.signer ?? null,
  };
}

/** A commit as the commit lists serve it (openapi.yaml `LedgerCommit`). */
export function commitView(c: StoredCommit) {
  return {
    track: c.track,
    hour_start: c.hourStart.toISOString(),
    hour_end: utcHourEnd(c.hourStart).toISOString(),
    hour_unix: c.hourStart.getTime() / 1000,
    leaf_version: c.leafVersion,
    leaf_count: c.leafCount,
    first_prediction_id: c.firstId,
    last_prediction_id: c.lastId,
    merkle_root_hex: c.rootHex,
    prev_root_hex: c.prevRootHex,
    record_digest_hex: c.digestHex,
    committed_at: c.committedAt.toISOString(),
    anchor: anchorView(c),
  };
}
