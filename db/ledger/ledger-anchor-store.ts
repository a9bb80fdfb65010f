import type { StoredAnchor } from './ledger-commit-store';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/** A memo transaction sent (or about to be) for a commit: its bytes are kept so a retry resends the same one. */
export type AnchorAttempt = {
  id: number;
  commitId: number;
  signature: string;
  signer: string;
  memo: string;
  rawTx: Uint8Array;
  lastValidBlockHeight: number;
  state: 'sent' | 'confirmed' | 'expired' | 'failed';
};

const toAttempt = (r: Record<string, any>): AnchorAttempt => ({
  id: r.id,
  commitId: r.commit_id,
  signature: r.signature,
  signer: r.signer,
  memo: r.memo,
  rawTx: new Uint8Array(r.raw_tx),
  lastValidBlockHeight: r.last_valid_block_height,
  state: r.state,
});

export function createLedgerAnchorStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async anchorOf(commitId: number): Promise<StoredAnchor | null> {
      const r = await db('ledger_anchors').where({ commit_id: commitId }).first();
      return r ? { memo: r.memo, signature: r.signature, signer: r.signer, slot: r.slot, blockTime: r.block_time, confirmedAt: r.confirmed_at } : null;
    },

    /** The newest attempt still awaiting its fate, if any. */
    async openAttempt(commitId: number): Promise<AnchorAttempt | null> {
      const r = await db('ledger_anchor_attempts').where({ commit_id: commitId, state: 'sent' }).orderBy('id', 'desc').first();
      return r ? toAttempt(r) : null;
    },

    /** Written before the transaction is sent: a crash after sending still leaves its signature to look up. */
    async recordAttempt(a: Omit<AnchorAttempt, 'id' | 'state'>, now: Date): Promise<AnchorAttempt> {
      const [r] = await db('ledger_anchor_attempts')
        .insert({
          commit_id: a.commitId,
          signature: a.signature,
          signer: a.signer,
          memo: a.memo,
          raw_tx: Buffer.from(a.rawTx),
          last_valid_block_height: a.lastValidBlockHeight,
          state: 'sent',
          created_at: now,
          updated_at: now,
        })
        .returning('*');
      return toAttempt(r);
    },

    async closeAttempt(id: number, state: 'expired' | 'failed', error: string, now: Date): Promise<void> {
      await db('ledger_anchor_attempts')
        .where({ id, state: 'sent' })
        .update({ state, error: error.slice(0, 500), updated_at: now });
    },

    /** Records the confirmed anchor once (a second confirmation of the same commit keeps the first). */
    async recordAnchor(attemptId: number, a: { commitId: number } & StoredAnchor, now: Date): Promise<StoredAnchor> {
      await db.transaction(async (trx) => {
        await trx('ledger_anchors')
          .insert({
            commit_id: a.commitId,
            memo: a.memo,
            signature: a.signature,
            signer: a.signer,
            slot: a.slot,
            block_time: a.blockTime,
            confirmed_at: a.confirmedAt,
          })
          .onConflict('commit_id')
          .ignore();
        await trx('ledger_anchor_attempts').where({ id: attemptId }).update({ state: 'confirmed', updated_at: now });
      });
      return (await this.anchorOf(a.commitId))!;
    },

    /** Commits without a confirmed anchor, oldest first. */
    async unanchored(limit: number): Promise<{ commitId: number; track: string; hourStart: Date }[]> {
      const rows = await db('ledger_commits as c')
        .leftJoin('ledger_anchors as a', 'a.commit_id', 'c.id')
        .whereNull('a.commit_id')
        .orderBy('c.id')
        .limit(limit)
        .select('c.id', 'c.track', 'c.hour_start');
      return rows.map((r) => ({ commitId: r.id, track: r.track, hourStart: r.hour_start }));
    },
  };
}
export type LedgerAnchorStore = ReturnType<typeof createLedgerAnchorStore>;
