import type { MintTape } from './mint-tape';

/**
 * Rug flags with documented thresholds, computed from the curve's own trades.
 * - bundle_pct: supply bought in the creation slot by wallets other than the creator; ≥ 15% flags.
 * - holder_concentration: top-10 holders' share of supply (the curve account holds the unsold rest and is
 *   not a wallet here; mayhem vaults never appear because mayhem mints are out of scope); ≥ 35% flags.
 * - fresh_wallet_first3: how many of the first three buyers had never traded before this mint; 3 flags.
 *   Omitted until the first three buyers are known.
 * - bundle_dump_in_progress: share of the bundle's tokens the bundle has sold; ≥ 25% flags.
 */
export const RUG_THRESHOLDS = { bundlePct: 0.15, holderConcentration: 0.35, freshFirst3: 3, bundleDump: 0.25 } as const;

export type RugFlag = { flag: 'bundle_pct' | 'holder_concentration' | 'fresh_wallet_first3' | 'bundle_dump_in_progress'; value: number; threshold: number; triggered: boolean };

const round = (x: number) => Math.round(x * 1e4) / 1e4;

export function rugFlags(tape: MintTape, freshFirst3: number | null): RugFlag[] {
  const b = tape.bundle();
  const top10 = tape.holderShares().slice(0, 10).reduce((s, h) => s + h.share, 0);
  const flags: RugFlag[] = [
    { flag: 'bundle_pct', value: round(b.pct), threshold: RUG_THRESHOLDS.bundlePct, triggered: b.pct >= RUG_THRESHOLDS.bundlePct },
    { flag: 'holder_concentration', value: round(top10), threshold: RUG_THRESHOLDS.holderConcentration, triggered: top10 >= RUG_THRESHOLDS.holderConcentration },
  ];
  if (freshFirst3 !== null) flags.push({ flag: 'fresh_wallet_first3', value: freshFirst3, threshold: RUG_THRESHOLDS.freshFirst3, triggered: freshFirst3 >= RUG_THRESHOLDS.freshFirst3 });
  flags.push({ flag: 'bundle_dump_in_progress', value: round(b.soldShare), threshold: RUG_THRESHOLDS.bundleDump, triggered: b.pct > 0 && b.soldShare >= RUG_THRESHOLDS.bundleDump });
  return flags;
}

/** Why the dashboard would auto-hide a mint: a dump in progress, or a heavily bundled launch. */
export function hideReason(flags: RugFlag[]): string | null {
  if (flags.some((f) => f.flag === 'bundle_dump_in_progress' && f.triggered)) return 'bundle_dump';
  if (flags.some((f) => f.flag === 'bundle_pct' && f.triggered)) return 'rug_flagged';
  return null;
}
