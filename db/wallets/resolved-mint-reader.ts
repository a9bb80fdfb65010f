import type { Knex } from 'knex';
import type { ResolvedMintTrades } from '../../domain/wallets/wallet-contribution';
import { toMintRow, toTrade } from '../mint/mint-read-store';

/** A resolved mint to apply to the index, with the horizon its trades are read to (the lifecycle's 24 h). */
export type MintToApply = { mint: string; horizonAt: Date };

/**
 * What the contributions of resolved mints are computed from, in four queries for any number of mints: the create
 * row, the trades up to each mint's horizon (in time order, ties in ingest order), the stored outcome labels
 * (mint_outcomes: the index never labels on its own, so a repaired label is picked up by re-applying) and the DEX
 * checkpoint prices. A mint without an outcome row is left out: it is not resolved.
 */
export async function readResolvedMints(db: Knex | Knex.Transaction, mints: readonly MintToApply[]): Promise<ResolvedMintTrades[]> {
  if (!mints.length) return [];
  const names = mints.map((m) => m.mint);
  const [creates, outcomes, trades, checkpoints] = await Promise.all([
    db('mints as m').leftJoin('mint_graduations as g', 'g.mint', 'm.mint').whereIn('m.mint', names).select('m.*', 'g.completed_at', 'g.migrated_at'),
    db('mint_outcomes').whereIn('mint', names).select('mint', 'label_version', 'rug_label_version', 'graduated', 'rugged'),
    db
      .raw(
        `SELECT t.* FROM unnest(?::text[], ?::timestamptz[]) AS h(mint, horizon_at)
         JOIN trades t ON t.mint = h.mint AND t.at <= h.horizon_at
         ORDER BY t.mint, t.at, t.seq`,
        [names, mints.map((m) => m.horizonAt)],
      )
      .then((r: { rows: unknown[] }) => r.rows),
    db('post_grad_checkpoints').whereIn('mint', names).whereNotNull('price_sol').select('mint', 'price_sol'),
  ]);
  const createOf = new Map(creates.map((r: any) => [r.mint as string, toMintRow(r)]));
  const outcomeOf = new Map(outcomes.map((r: any) => [r.mint as string, r]));
  const tradesOf = new Map<string, ReturnType<typeof toTrade>[]>();
  for (const r of trades) {
    const t = toTrade(r);
    let list = tradesOf.get(t.mint);
    if (!list) tradesOf.set(t.mint, (list = []));
    list.push(t);
  }
  const pricesOf = new Map<string, number[]>();
  for (const c of checkpoints) pricesOf.set(c.mint, [...(pricesOf.get(c.mint) ?? []), Number(c.price_sol)]);
  return mints.flatMap((m) => {
    const create = createOf.get(m.mint);
    const o = outcomeOf.get(m.mint);
    if (!create || !o) return [];
    return [
      {
        create,
        trades: tradesOf.get(m.mint) ?? [],
        horizonAt: m.horizonAt,
        outcome: { labelVersion: o.label_version, rugLabelVersion: o.rug_label_version ?? 'unknown', graduated: o.graduated, rugged: o.rugged },
        checkpointPricesSol: pricesOf.get(m.mint) ?? [],
      },
    ];
  });
}
