import type { Knex } from 'knex';
import type { TreasuryTransaction } from '../../domain/billing/treasury-transaction';
import type { PaymentUnit } from '../../domain/billing/pay-with';
import { intentMemoOf } from '../../domain/billing/payment-memo';
import type { MemoTransfer } from '../../domain/billing/payment-matching';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/**
 * Every treasury transaction the scanner has read, keyed by signature, so each is fetched and counted once; and
 * under which watched address (the treasury, its token accounts) each was listed, which is where that address's
 * next listing stops.
 */
export function createTreasuryStore(handle: Db) {
  const db = knexOf(handle);
  // The amount an intent's unit reads: lamports, or raw units of its mint (as text: numeric(20,0) is exact, a JS number is not).
  const unitFilter = (q: Knex.QueryBuilder, unit: PaymentUnit) =>
    unit.payWith === 'token' ? q.where({ token_mint: unit.mint }).where('tokens_raw', '>', 0) : q.where('lamports', '>', 0);
  const unitColumn = (unit: PaymentUnit) => (unit.payWith === 'token' ? 'tokens_raw::text' : 'lamports::text');

  return {
    async known(address: string, signatures: string[]): Promise<Set<string>> {
      if (!signatures.length) return new Set();
      const rows = await db('treasury_address_signatures').where({ address }).whereIn('signature', signatures).select('signature');
      return new Set(rows.map((r) => r.signature as string));
    },

    /** Records transactions listed under `address` (the treasury wallet or one of its token accounts). */
    async record(treasury: string, address: string, txs: TreasuryTransaction[], seenAt: Date): Promise<void> {
      if (!txs.length) return;
      await db.transaction(async (trx) => {
        await trx('treasury_transactions')
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
              token_mint: t.tokensToTreasury?.mint ?? null,
              tokens_raw: (t.tokensToTreasury?.raw ?? 0n).toString(),
              payer: t.payer,
            })),
          )
          .onConflict('signature')
          .ignore();
        await trx('treasury_address_signatures')
          .insert(txs.map((t) => ({ address, signature: t.signature })))
          .onConflict(['address', 'signature'])
          .ignore();
      });
    },

    /**
     * For the status read: SOL and (for a token intent) tokens that reached the treasury under the memo, and the
     * newest transfer in the intent's unit.
     */
    async receivedFor(memo: string, unit: PaymentUnit): Promise<{ lamports: bigint; tokensRaw: bigint; newestSignature: string | null }> {
      const mine = () => db('treasury_transactions').where({ intent_memo: memo, failed: false });
      const sum = await mine().first(
        db.raw('coalesce(sum(lamports), 0)::text AS lamports'),
        db.raw('coalesce(sum(tokens_raw) FILTER (WHERE token_mint = ?), 0)::text AS tokens', [unit.payWith === 'token' ? unit.mint : null]),
      );
      const newest = await unitFilter(mine(), unit).orderBy('slot', 'desc').first('signature');
      return { lamports: BigInt(sum.lamports), tokensRaw: BigInt(sum.tokens), newestSignature: newest?.signature ?? null };
    },

    /** Successful transfers to the treasury naming this intent, in its unit. */
    async transfersFor(memo: string, unit: PaymentUnit): Promise<MemoTransfer[]> {
      const rows = await unitFilter(db('treasury_transactions').where({ intent_memo: memo, failed: false }), unit)
        .select('signature', 'slot', 'block_time', 'seen_at', db.raw(`${unitColumn(unit)} AS units`))
        .orderBy([{ column: 'slot' }, { column: 'signature' }]);
      return rows.map((r: { signature: string; slot: number; block_time: Date | null; seen_at: Date; units: string }) => ({
        signature: r.signature,
        slot: r.slot,
        blockTime: r.block_time,
        seenAt: r.seen_at,
        units: BigInt(r.units),
      }));
    },
  };
}
export type TreasuryStore = ReturnType<typeof createTreasuryStore>;
