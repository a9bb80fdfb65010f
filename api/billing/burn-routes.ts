import { Router } from 'express';
import type { BurnStore } from '../../db/billing/burn-store';
import { lamportsToSol } from '../../domain/billing/pricing';
import { capRows } from '../http/query-caps';

/**
 * Holder-token burns owed and executed, read from the tables activation and the operator's burn record write.
 * A revenue commitment is SOL set aside for a buy-back; its token amount exists only once the burn executes.
 */
export function burnRoutes(d: { burnStore: BurnStore; holderTokenMint: string | null; now: () => Date }): Router {
  const r = Router();

  r.get('/api/burn/pending', async (_req, res) => {
    const items = await d.burnStore.pending();
    const tokens = items.reduce((s, i) => s + (i.amountTokens ?? 0), 0);
    const lamports = items.reduce((s, i) => s + (i.amountLamports ?? 0n), 0n);
    res.set('Cache-Control', 'no-store').json({
      generated_at: d.now().toISOString(),
      token_mint: d.holderTokenMint,
      total_tokens: tokens,
      total_sol: lamportsToSol(lamports),
      count: items.length,
      items: items.map((i) => ({
        id: i.id,
        kind: i.kind,
        amount_tokens: i.amountTokens,
        amount_sol: i.amountLamports === null ? null : lamportsToSol(i.amountLamports),
        source_signature: i.sourceSignature,
        period_start: i.periodStart,
        due_at: i.dueAt?.toISOString() ?? null,
        created_at: i.createdAt.toISOString(),
      })),
    });
  });

  r.get('/api/burn/history', async (req, res) => {
    const { count, burns } = await d.burnStore.history(capRows(Number(req.query.limit ?? 50)));
    res.set('Cache-Control', 'no-store').json({
      token_mint: d.holderTokenMint,
      count,
      burns: burns.map((b) => ({
        id: b.id,
        kind: b.kind,
        amount_tokens: b.amountTokens,
        signature: b.signature,
        slot: b.slot,
        executed_at: b.executedAt.toISOString(),
      })),
    });
  });

  return r;
}
