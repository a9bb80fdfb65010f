import { CURVE } from './launch-events';
import type { MintTape } from './mint-tape';

/**
 * Rug flags with documented thresholds, computed from the curve's own trades (versioned with the labels they
 * feed: a changed threshold is a new label version).
 * - bundle_pct: share of supply bought in the creation slot by wallets other than the creator; ≥ 15% flags.
 *   Without a slot on the create event (some feeds omit it) no wallet can be placed in the creation slot: 0.
 * - holder_concentration: top-10 holders' share of supply, the creator included, leaving out accounts that
 *   are not holders: the bonding curve (it holds the unsold reserve) and any mayhem-mode vault (mayhem mints
 *   are out of scope, so none appear today; the exclusion list still takes them). ≥ 35% flags.
 * - fresh_wallet_first3: how many of the first three non-creator buyers had never traded on the launchpad
 *   before this mint was created; 3 (all of them) flags. Omitted until three buyers are known.
 * - bundle_dump_in_progress: share of the bundle's bought tokens the bundle has sold; ≥ 25% flags (only when
 *   there is a bundle).
 */
export const RUG_THRESHOLDS = { bundlePct: 0.15, holderConcentration: 0.35, freshFirst3: 3, bundleDump: 0.25 } as const;
export const TOP_HOLDERS = 10;

export type RugFlagName = 'bundle_pct' | 'holder_concentration' | 'fresh_wallet_first3' | 'bundle_dump_in_progress';
export type RugFlag = { flag: RugFlagName; value: number; threshold: number; triggered: boolean };

const round = (x: number) => Math.round(x * 1e4) / 1e4;

/** Top-10 holders' share of supply, leaving out the bonding curve and `vaults` (see above). */
export function holderConcentration(tape: MintTape, vaults: readonly string[] = []): number {
  const excluded = new Set([tape.create.bondingCurve, ...vaults]);
  let share = 0;
  let n = 0;
  for (const h of tape.holderShares()) {
    if (excluded.has(h.wallet)) continue;
    share += h.share;
    if (++n === TOP_HOLDERS) break;
  }
  return Math.min(1, share);
}

export function rugFlags(tape: MintTape, freshFirst3: number | null, vaults: readonly string[] = []): RugFlag[] {
  const b = tape.bundle();
  const top = holderConcentration(tape, vaults);
  const bundlePct = Math.min(1, b.pct);
  const flags: RugFlag[] = [
    { flag: 'bundle_pct', value: round(bundlePct), threshold: RUG_THRESHOLDS.bundlePct, triggered: bundlePct >= RUG_THRESHOLDS.bundlePct },
    { flag: 'holder_concentration', value: round(top), threshold: RUG_THRESHOLDS.holderConcentration, triggered: top >= RUG_THRESHOLDS.holderConcentration },
  ];
  if (freshFirst3 !== null && tape.firstBuyers.length === 3) {
    flags.push({
      flag: 'fresh_wallet_first3',
      value: freshFirst3,
      threshold: RUG_THRESHOLDS.freshFirst3,
      triggered: freshFirst3 >= RUG_THRESHOLDS.freshFirst3,
    });
  }
  flags.push({
    flag: 'bundle_dump_in_progress',
    value: round(b.soldShare),
    threshold: RUG_THRESHOLDS.bundleDump,
    triggered: b.pct > 0 && b.soldShare >= RUG_THRESHOLDS.bundleDump,
  });
  return flags;
}

/** Why the dashboard would auto-hide a mint: a dump in progress, or a heavily bundled launch. */
export function hideReason(flags: readonly RugFlag[]): string | null {
  if (flags.some((f) => f.flag === 'bundle_dump_in_progress' && f.triggered)) return 'bundle_dump';
  if (flags.some((f) => f.flag === 'bundle_pct' && f.triggered)) return 'rug_flagged';
  return null;
}

/** The creator's share of supply held now (0 when it holds none). */
export function creatorHoldingShare(tape: MintTape): number {
  const w = tape.wallets.get(tape.create.creator);
  return w ? Math.min(1, w.tokens / CURVE.totalSupplyRaw) : 0;
}
