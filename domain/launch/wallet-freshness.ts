import type { MintTape } from './mint-tape';

/**
 * A buyer is "fresh" when it had never traded on the launchpad before the mint was created (the launchpad's
 * own history is what this service sees; funding transfers are not). Statuses are looked up once per
 * (mint, buyer) and never change: history before the creation is fixed.
 */
export type Freshness = ReadonlyMap<string, boolean>;

/** Non-creator buyers of the tape whose status is not known yet. */
export function unknownBuyers(tape: MintTape, known: Freshness): string[] {
  const out: string[] = [];
  for (const [wallet, w] of tape.wallets) if (w.bought > 0 && wallet !== tape.create.creator && !known.has(wallet)) out.push(wallet);
  return out;
}

/** Fresh wallets among the first three buyers; null until three buyers are known and looked up. */
export function freshFirst3(tape: MintTape, known: Freshness): number | null {
  if (tape.firstBuyers.length < 3 || tape.firstBuyers.some((w) => !known.has(w))) return null;
  return tape.firstBuyers.filter((w) => known.get(w)).length;
}

/** Fresh wallets among the first (up to three) buyers seen so far: the rug model's feature, defined at any age. */
export function freshAmongFirstBuyers(tape: MintTape, known: Freshness): number {
  return tape.firstBuyers.filter((w) => known.get(w) === true).length;
}

/** Share of non-creator buyers that are fresh; null before any buyer's status is known. */
export function freshWalletShare(tape: MintTape, known: Freshness): number | null {
  let n = 0;
  let fresh = 0;
  for (const [wallet, w] of tape.wallets) {
    if (w.bought <= 0 || wallet === tape.create.creator || !known.has(wallet)) continue;
    n++;
    if (known.get(wallet)) fresh++;
  }
  return n === 0 ? null : fresh / n;
}
