/**
 * Smart money on a mint as the live tick carries it: the enriched record shows it, and the areas that run on the tick
 * read it. The wallets area computes it from its index (domain/wallets/smart-money.ts) and hands it to the live read
 * model through its port (db/live/live-read-sources.ts), so these shapes are the live area's.
 */

/** A top buyer under its FULL address, as the tape lists it. */
export type TopBuyerRef = { wallet: string; solIn: number };
/** A top buyer as published: by prefix, with its smart score (null when unknown or below the minimum sample). */
export type SmartBuyer = { walletPrefix: string; solIn: number; smartScore: number | null; total: number | null; smart: boolean };
export type SmartMoney = { smartMoneyIn: number; buyers: SmartBuyer[]; scoreVersion: string };

/**
 * The `smartScores` map enrichMint's top buyers read (keyed by 12-character prefix, as the tape's top-buyer
 * list names wallets): only published scores; a prefix two top buyers share gets no score rather than a guess.
 */
export function smartScoresByPrefix(m: SmartMoney): Map<string, number> {
  const count = new Map<string, number>();
  for (const b of m.buyers) count.set(b.walletPrefix, (count.get(b.walletPrefix) ?? 0) + 1);
  const out = new Map<string, number>();
  for (const b of m.buyers) if (b.smartScore !== null && count.get(b.walletPrefix) === 1) out.set(b.walletPrefix, b.smartScore);
  return out;
}
