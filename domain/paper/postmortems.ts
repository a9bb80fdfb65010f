import { realisedPnl, type PaperPosition } from './paper-position';

/**
 * Post-mortems (spec section 4, GET /api/postmortems): closed losing trades, newest close first.
 *
 * - loss_pct = −P&L ÷ SOL spent, a fraction (0.3 = 30%; proceeds are never negative, so at most 1). Only losing
 *   trades (P&L < 0) are post-mortems; `minLossPct` 0 therefore means every losing trade, never a winner.
 * - `requireContext` keeps only trades stored with their entry-time enriched snapshot. Every position of this
 *   service stores one at entry, so the filter removes nothing here; it is kept for the contract's sake.
 * - Ties on the close time are broken by strategy then mint, so a page is stable.
 */
export type PostmortemInput<S> = { position: PaperPosition; entrySnapshot: S | null };

export type Postmortem<S> = PostmortemInput<S> & { lossPct: number; pnlLamports: number };

export type PostmortemQuery = { minLossPct: number; limit: number; requireContext: boolean };

export function selectPostmortems<S>(trades: readonly PostmortemInput<S>[], q: PostmortemQuery): Postmortem<S>[] {
  // Above 1 is a valid ask (the spec bounds it only below) that no trade meets: a loss is at most the whole stake.
  if (!(q.minLossPct >= 0 && Number.isFinite(q.minLossPct))) throw new RangeError(`min_loss_pct must be a finite number >= 0, got ${q.minLossPct}`);
  if (!Number.isInteger(q.limit) || q.limit < 1) throw new RangeError(`limit must be a positive integer, got ${q.limit}`);
  const out: Postmortem<S>[] = [];
  for (const t of trades) {
    const pnl = realisedPnl(t.position);
    if (!pnl || pnl.pnlLamports >= 0) continue;
    if (q.requireContext && t.entrySnapshot === null) continue;
    const lossPct = -pnl.returnPct;
    if (lossPct < q.minLossPct) continue;
    out.push({ ...t, lossPct, pnlLamports: pnl.pnlLamports });
  }
  out.sort((a, b) => b.position.exit!.atMs - a.position.exit!.atMs || cmp(a.position.strategy, b.position.strategy) || cmp(a.position.mint, b.position.mint));
  return out.slice(0, q.limit);
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
