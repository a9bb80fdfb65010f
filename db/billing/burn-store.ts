import type { Knex } from 'knex';
import type { BurnKind } from '../../domain/billing/burn-kind';
import { committedLamports, weekDueAt, weekStartUtc } from '../../domain/billing/revenue-commitment';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type { BurnKind };
export type PendingBurn = {
  id: number;
  kind: BurnKind;
  amountTokens: number | null;
  amountLamports: bigint | null;
  sourceSignature: string | null;
  periodStart: string | null;
  dueAt: Date | null;
  createdAt: Date;
};
/** A burn was asked to settle obligations that do not exist, are of another kind, or are settled already. */
export class ObligationsNotOpen extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ObligationsNotOpen';
  }
}

export type ExecutedBurn = { id: number; kind: BurnKind; amountTokens: number; signature: string; slot: number | null; tokenMint: string; executedAt: Date };

/** Burns owed (pay-with-token receipts, weekly revenue commitments) and burns executed on chain. */
export function createBurnStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /**
     * Adds an activated intent's share of revenue to its week's open commitment. Runs inside the activation
     * transaction, once per intent (the contribution is keyed by the memo), so a retried activation adds nothing.
     */
    async commitRevenue(trx: Knex.Transaction, o: { memo: string; revenueLamports: bigint; shareBps: number; at: Date }): Promise<number> {
      const lamports = committedLamports(o.revenueLamports, o.shareBps);
      if (lamports <= 0n) return 0;
      const week = weekStartUtc(o.at);
      const { rows } = await trx.raw(
        `INSERT INTO burn_obligations (kind, amount_lamports, period_start, due_at, created_at, updated_at)
         VALUES ('revenue_commitment', ?, ?, ?, ?, ?)
         ON CONFLICT (period_start) WHERE kind = 'revenue_commitment' AND burn_id IS NULL
         DO UPDATE SET amount_lamports = burn_obligations.amount_lamports + excluded.amount_lamports, updated_at = excluded.updated_at
         RETURNING id`,
        [lamports.toString(), week, weekDueAt(week), o.at, o.at],
      );
      const row = rows[0];
      const id = Number((row as { id: number }).id);
      await trx('burn_contributions').insert({ intent_memo: o.memo, obligation_id: id, lamports: lamports.toString(), created_at: o.at });
      return id;
    },

    /**
     * A token-paid intent's receipt: the tokens it brought, owed to a burn. Runs inside the activation transaction,
     * which writes it once per intent; the signature is unique among receipts, so no payment is owed twice.
     * `amountTokens` is an exact decimal (UI units); the column keeps 9 fractional digits, more than pump tokens' 6.
     */
    async owePaymentReceipt(trx: Knex.Transaction, o: { sourceSignature: string; amountTokens: string; at: Date }): Promise<number> {
      const [row] = await trx('burn_obligations')
        .insert({ kind: 'payment_receipt', amount_tokens: o.amountTokens, source_signature: o.sourceSignature, created_at: o.at, updated_at: o.at })
        .returning('id');
      return Number((row as { id: number }).id);
    },

    async pending(): Promise<PendingBurn[]> {
      const rows = await db('burn_obligations').whereNull('burn_id').orderBy('created_at').orderBy('id');
      return rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        amountTokens: r.amount_tokens,
        amountLamports: r.amount_lamports === null ? null : BigInt(r.amount_lamports),
        sourceSignature: r.source_signature,
        periodStart: r.period_start === null ? null : toDateString(r.period_start),
        dueAt: r.due_at,
        createdAt: r.created_at,
      }));
    },

    async history(limit: number): Promise<{ count: number; burns: ExecutedBurn[] }> {
      const total = await db('executed_burns').count({ n: '*' }).first();
      const rows = await db('executed_burns').orderBy('executed_at', 'desc').orderBy('id', 'desc').limit(limit);
      return {
        count: Number(total?.n ?? 0),
        burns: rows.map((r) => ({
          id: r.id,
          kind: r.kind,
          amountTokens: r.amount_tokens,
          signature: r.signature,
          slot: r.slot,
          tokenMint: r.token_mint,
          executedAt: r.executed_at,
        })),
      };
    },

    /** Records a burn verified on chain and settles the obligations it covers. Idempotent on the signature. */
    async recordExecuted(b: Omit<ExecutedBurn, 'id'> & { settles: number[]; recordedAt: Date }): Promise<{ id: number; inserted: boolean }> {
      return db.transaction(async (trx) => {
        const inserted = await trx('executed_burns')
          .insert({
            kind: b.kind,
            signature: b.signature,
            slot: b.slot,
            token_mint: b.tokenMint,
            amount_tokens: b.amountTokens,
            executed_at: b.executedAt,
            recorded_at: b.recordedAt,
          })
          .onConflict('signature')
          .ignore()
          .returning('id');
        const id = inserted.length
          ? Number((inserted[0] as { id: number }).id)
          : Number((await trx('executed_burns').where({ signature: b.signature }).first('id')).id);
        if (b.settles.length) {
          const open = await trx('burn_obligations')
            .whereIn('id', b.settles)
            .whereNull('burn_id')
            .where({ kind: b.kind })
            .update({ burn_id: id, updated_at: b.recordedAt });
          const wanted = new Set(b.settles);
          if (inserted.length && open !== wanted.size)
            throw new ObligationsNotOpen(`burn ${b.signature}: ${wanted.size - open} of the obligations to settle are not open ${b.kind} obligations`);
        }
        return { id, inserted: inserted.length > 0 };
      });
    },
  };
}
export type BurnStore = ReturnType<typeof createBurnStore>;

// `date` columns arrive as local-midnight Dates from node-postgres; the calendar date is what was stored.
function toDateString(d: Date | string): string {
  if (typeof d === 'string') return d.slice(0, 10);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
