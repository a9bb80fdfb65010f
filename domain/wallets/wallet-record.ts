import type { WalletMintContribution } from './wallet-contribution';

/**
 * A wallet's lifetime record: sums of its wallet-mint contributions, so a resolution updates it with
 * increments and a rebuild sums contributions, and both give the same record. Every count is a sum of 0/1
 * facts (or lamports), so a contribution can also be taken back exactly when a re-resolved mint's label
 * changes: the store keeps the contribution it applied per (mint, wallet), and a re-resolution applies
 * `contributionDelta(applied, recomputed)`. Applying once per (wallet, mint) is the store's job.
 *
 * firstSeenAt / lastSeenAt are the earliest first buy and the latest buy over every contribution ever applied.
 * They are bounds, not sums: taking a contribution back leaves them (the wallet was seen then, whatever the
 * label says), and a replaced contribution keeps its buy times, so re-resolution never moves them. A rebuild
 * recomputes them exactly.
 */
export type WalletCounts = {
  /** Resolved launches bought: the sample size. */
  total: number;
  graduated: number;
  ran: number;
  mid: number;
  rugged: number;
  fastSnipes: number;
  /** Fast snipes whose launch rugged (the sniper ranking's numerator). */
  snipedRugged: number;
  /** Launches bought no later than the 60 s score. */
  early: number;
  /** Graduates bought no later than the 60 s score (the service ranking's numerator). */
  earlyGraduated: number;
  buys: number;
  solInvestedLamports: number;
};

export type WalletRecord = WalletCounts & { wallet: string; firstSeenAt: Date | null; lastSeenAt: Date | null };

/** A signed change to a record: counts to add, and buy times to widen the seen bounds with. */
export type RecordDelta = WalletCounts & { wallet: string; firstBuyAt: Date | null; lastBuyAt: Date | null };

export const COUNT_FIELDS = [
  'total',
  'graduated',
  'ran',
  'mid',
  'rugged',
  'fastSnipes',
  'snipedRugged',
  'early',
  'earlyGraduated',
  'buys',
  'solInvestedLamports',
] as const satisfies readonly (keyof WalletCounts)[];

const zeroCounts = (): WalletCounts => ({
  total: 0,
  graduated: 0,
  ran: 0,
  mid: 0,
  rugged: 0,
  fastSnipes: 0,
  snipedRugged: 0,
  early: 0,
  earlyGraduated: 0,
  buys: 0,
  solInvestedLamports: 0,
});

export const emptyRecord = (wallet: string): WalletRecord => ({ wallet, ...zeroCounts(), firstSeenAt: null, lastSeenAt: null });

/** The counts one contribution adds (every flag is 0 or 1). */
export function contributionCounts(c: WalletMintContribution): WalletCounts {
  const b = (x: boolean) => (x ? 1 : 0);
  return {
    total: 1,
    graduated: b(c.graduated),
    ran: b(c.ran),
    mid: b(c.mid),
    rugged: b(c.rugged),
    fastSnipes: b(c.fastSnipe),
    snipedRugged: b(c.fastSnipe && c.rugged),
    early: b(c.early),
    earlyGraduated: b(c.early && c.graduated),
    buys: c.buys,
    solInvestedLamports: c.solInvestedLamports,
  };
}

/**
 * What replacing `applied` by `next` changes on the wallet's record (either may be null: nothing applied yet,
 * or nothing to apply any more). Zero counts when they agree, so a retried resolution changes nothing.
 */
export function contributionDelta(applied: WalletMintContribution | null, next: WalletMintContribution | null): RecordDelta {
  const wallet = next?.wallet ?? applied?.wallet;
  if (wallet === undefined) throw new RangeError('a delta needs at least one contribution');
  if (applied && next && (applied.wallet !== next.wallet || applied.mint !== next.mint))
    throw new RangeError('a delta replaces a contribution of the same wallet and mint');
  const plus = next ? contributionCounts(next) : zeroCounts();
  const minus = applied ? contributionCounts(applied) : zeroCounts();
  const counts = zeroCounts();
  for (const f of COUNT_FIELDS) counts[f] = plus[f] - minus[f];
  return { wallet, ...counts, firstBuyAt: next?.firstBuyAt ?? null, lastBuyAt: next?.lastBuyAt ?? null };
}

export const isZeroDelta = (d: RecordDelta): boolean => COUNT_FIELDS.every((f) => d[f] === 0);

const minDate = (a: Date | null, b: Date | null) => (a === null ? b : b === null ? a : a.getTime() <= b.getTime() ? a : b);
const maxDate = (a: Date | null, b: Date | null) => (a === null ? b : b === null ? a : a.getTime() >= b.getTime() ? a : b);

/** Adds a delta to a record; a count that would fall below zero means a contribution was taken back that was never applied. */
export function applyDelta(r: WalletRecord, d: RecordDelta): WalletRecord {
  if (r.wallet !== d.wallet) throw new RangeError(`delta of ${d.wallet} applied to ${r.wallet}`);
  const out: WalletRecord = { ...r, firstSeenAt: minDate(r.firstSeenAt, d.firstBuyAt), lastSeenAt: maxDate(r.lastSeenAt, d.lastBuyAt) };
  for (const f of COUNT_FIELDS) {
    out[f] = r[f] + d[f];
    if (out[f] < 0) throw new RangeError(`${f} of ${r.wallet} would fall below zero`);
  }
  return out;
}

export const applyContribution = (r: WalletRecord, c: WalletMintContribution): WalletRecord => applyDelta(r, contributionDelta(null, c));
export const removeContribution = (r: WalletRecord, c: WalletMintContribution): WalletRecord => applyDelta(r, contributionDelta(c, null));

/** A record from scratch: the sum of a wallet's contributions (the rebuild). */
export function rebuildRecord(wallet: string, contributions: readonly WalletMintContribution[]): WalletRecord {
  return contributions.reduce(applyContribution, emptyRecord(wallet));
}

/**
 * The deltas one (re-)resolution of a mint makes: per wallet, what it had applied against what it now
 * contributes. Wallets on one side only (a changed definition, a backfilled trade) get a one-sided delta;
 * unchanged wallets none. Ordered by wallet (lock order, see mintContributions).
 */
export function resolutionDeltas(applied: readonly WalletMintContribution[], next: readonly WalletMintContribution[]): RecordDelta[] {
  const mints = new Set([...applied, ...next].map((c) => c.mint));
  if (mints.size > 1) throw new RangeError(`one resolution is one mint, got ${[...mints].join(', ')}`);
  const before = new Map(applied.map((c) => [c.wallet, c]));
  const after = new Map(next.map((c) => [c.wallet, c]));
  const wallets = [...new Set([...before.keys(), ...after.keys()])].sort();
  const sameTimes = (a: WalletMintContribution | undefined, b: WalletMintContribution | undefined) =>
    a !== undefined && b !== undefined && a.firstBuyAt.getTime() === b.firstBuyAt.getTime() && a.lastBuyAt.getTime() === b.lastBuyAt.getTime();
  return wallets.flatMap((w) => {
    const d = contributionDelta(before.get(w) ?? null, after.get(w) ?? null);
    return isZeroDelta(d) && (after.get(w) === undefined || sameTimes(before.get(w), after.get(w))) ? [] : [d];
  });
}

/** Observed rates of a record; null without a sample (or, for the sniper rate, without a snipe). */
export function recordRates(r: WalletCounts) {
  const rate = (x: number, n: number) => (n > 0 ? x / n : null);
  return {
    graduationRate: rate(r.graduated, r.total),
    runnerRate: rate(r.ran, r.total),
    midRate: rate(r.mid, r.total),
    rugRate: rate(r.rugged, r.total),
    /** Share of launches bought whose first buy was a fast snipe; 0 without a sample (openapi: a number). */
    fastSnipeRate: rate(r.fastSnipes, r.total) ?? 0,
    sniperRugRate: rate(r.snipedRugged, r.fastSnipes),
    /** SOL per buy trade. */
    avgBuySol: r.buys > 0 ? r.solInvestedLamports / 1e9 / r.buys : null,
    totalInvestedSol: r.solInvestedLamports / 1e9,
  };
}
