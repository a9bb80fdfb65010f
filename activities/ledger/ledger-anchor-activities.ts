import { ApplicationFailure } from '@temporalio/activity';
import type { MemoAnchorClient } from '../../clients/solana/memo-anchor-client';
import type { AnchorAttempt, LedgerAnchorStore } from '../../db/ledger/ledger-anchor-store';
import type { LedgerCommitStore, StoredAnchor } from '../../db/ledger/ledger-commit-store';
import { anchorMemo } from '../../domain/ledger/anchor-memo';
import type { LedgerAnchorResult } from '../../workflows/ledger/ledger-anchor-contract';

export type LedgerAnchorDeps = {
  commitStore: LedgerCommitStore;
  anchorStore: LedgerAnchorStore;
  /** Null while no signing key is configured. */
  anchorClient: MemoAnchorClient | null;
  /** How long one attempt waits for its transaction to be confirmed before leaving it to the next attempt. */
  confirmWaitMs: number;
  pollMs: number;
  now: () => Date;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function createLedgerAnchorActivities(d: LedgerAnchorDeps) {
  const done = (commitId: number, a: StoredAnchor): LedgerAnchorResult => ({ commitId, signature: a.signature, slot: a.slot, memo: a.memo });

  /** Records the anchor once the node confirms the transaction and serves it with exactly our memo and signer. */
  async function confirmIfLanded(client: MemoAnchorClient, attempt: AnchorAttempt): Promise<StoredAnchor | 'pending' | 'failed'> {
    const status = await client.status(attempt.signature);
    if (status.state === 'failed') {
      await d.anchorStore.closeAttempt(attempt.id, 'failed', `transaction failed: ${status.err}`, d.now());
      return 'failed';
    }
    if (status.state !== 'confirmed') return 'pending';
    const tx = await client.transaction(attempt.signature);
    if (!tx) return 'pending'; // confirmed but not served yet by this node
    if (!tx.memos.includes(attempt.memo) || !tx.signers.includes(attempt.signer)) {
      throw ApplicationFailure.nonRetryable(`transaction ${attempt.signature} does not carry this commit's memo and signer`, 'AnchorMismatch');
    }
    const blockTime = tx.blockTime === null ? null : new Date(tx.blockTime * 1000);
    return d.anchorStore.recordAnchor(
      attempt.id,
      { commitId: attempt.commitId, memo: attempt.memo, signature: attempt.signature, signer: attempt.signer, slot: tx.slot, blockTime, confirmedAt: d.now() },
      d.now(),
    );
  }

  return {
    /**
     * Publishes a commit's root as an SPL Memo and records the signature and slot with the commit. The signed
     * transaction is stored before it is sent, so after a crash or a timeout the next attempt looks that signature
     * up, resends the same bytes while their blockhash is valid, and signs a new one only once it has expired or
     * failed: one commit, one anchor. Every failure to reach the node is thrown for Temporal to retry.
     */
    async anchorLedgerCommit(input: { commitId: number }): Promise<LedgerAnchorResult> {
      const client = d.anchorClient;
      if (!client) throw ApplicationFailure.nonRetryable('no ledger anchoring key is configured', 'AnchoringOff');
      const commit = await d.commitStore.byId(input.commitId);
      if (!commit) throw ApplicationFailure.nonRetryable(`no ledger commit ${input.commitId}`, 'UnknownCommit');
      if (commit.anchor) return done(commit.id, commit.anchor);

      let attempt = await d.anchorStore.openAttempt(commit.id);
      if (attempt) {
        const landed = await confirmIfLanded(client, attempt);
        if (typeof landed === 'object') return done(commit.id, landed);
        if (landed === 'pending' && (await client.blockHeight()) > attempt.lastValidBlockHeight) {
          await d.anchorStore.closeAttempt(attempt.id, 'expired', 'blockhash expired before the transaction landed', d.now());
          attempt = null;
        } else if (landed === 'failed') attempt = null;
      }
      if (!attempt) {
        const memo = anchorMemo({ track: commit.track, hourStart: commit.hourStart, rootHex: commit.rootHex });
        const signed = await client.prepare(memo);
        attempt = await d.anchorStore.recordAttempt({ commitId: commit.id, signer: client.signer, memo, ...signed }, d.now());
      }
      try {
        await client.send(attempt.rawTx);
      } catch (e) {
        // A resend of a transaction that already landed is refused by preflight: its status tells.
        const landed = await confirmIfLanded(client, attempt);
        if (typeof landed === 'object') return done(commit.id, landed);
        throw e;
      }
      for (const deadline = Date.now() + d.confirmWaitMs; Date.now() < deadline;) {
        await sleep(d.pollMs);
        const landed = await confirmIfLanded(client, attempt);
        if (typeof landed === 'object') return done(commit.id, landed);
        if (landed === 'failed') break;
      }
      throw new Error(`memo transaction ${attempt.signature} not confirmed yet; the next attempt looks it up`);
    },
  };
}
export type LedgerAnchorActivities = ReturnType<typeof createLedgerAnchorActivities>;
