import type { Knex } from 'knex';
import type { TreasuryTransaction } from '../../clients/solana/treasury-transaction';
import { intentMemoOf } from '../../domain/billing/payment-memo';
import type { MemoTransfer } from '../../domain/billing/payment-matching';

/** Every treasury transaction the scanner has read, keyed by signature, so each is fetched and counted once. */
export function createTreasuryStore(db: Knex) {
  return {
    async known(treasury: string, signatures: string[]): Promise<Set<string>> {
      if (!signatures.length) return new Set();
      const rows = await db('treasury_transactions').where({ treasury }).whereIn('signature', signatures).select('signature');
      return new Set(rows.map((r) => r.signature as string));
    },

    async record(treasury: string, txs: TreasuryTransaction[], seenAt: Date): Promise<void> {
      if (!txs.length) return;
      await db('treasury_transactions')
        .insert(
          txs.map((t) => ({
            signature: t.signature,
            treasury,
            slot: t.slot,
            block_time: t.blockTime,
            seen_at: seenAt,
            failed: t.failed,
            memos: t.memos,
            intent_memo: intentMemoOf(t.memos),
            lamports: t.lamportsToTreasury.toString(),
            payer: t.payer,
          })),
        )
        .onConflict('signature')
        .ignore();
    },

    /** For the status read: all that reached the treasury under the memo, and the newest transfer. */
    async receivedFor(memo: string): Promise<{ lamports: bigint; newestSignature: string | null }> {
      const sum = await db('treasury_transactions').where({ intent_memo: memo, failed: false }).sum({ n: 'lamports' }).first();
      const newest = await db('treasury_transactions').where({ intent_memo: memo, failed: false }).where('lamports', '>', 0).orderBy('slot', 'desc').first('signature');
      return { lamports: BigInt(sum?.n ?? 0), newestSignature: newest?.signature ?? null };
    },

    /** Successful transfers to the treasury naming this intent. */
    async transfersFor(memo: string): Promise<MemoTransfer[]> {
      const rows = await db('treasury_transactions').where({ intent_memo: memo, failed: false }).where('lamports', '>', 0).orderBy([{ column: 'slot' }, { column: 'signature' }]);
      return rows.map((r) => ({ signature: r.signature, slot: r.slot, blockTime: r.block_time, seenAt: r.seen_at, lamports: BigInt(r.lamports) }));
    },
  };
}
export type TreasuryStore = ReturnType<typeof createTreasuryStore>;
