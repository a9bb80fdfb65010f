import type { PerpsSide, PositionSnapshot, WalletSnapshot } from './perps-types';
import type { SmartVerdict } from './smart-rule';
import { isWhalePosition, PERPS_SMART_V1, type PerpsSmartRule } from './smart-rule';

/**
 * Entries from two consecutive clearinghouse snapshots of one wallet (entry-v1):
 * - `new`: a market with no position before, or a position on the other side (a flip is a new entry);
 * - `increase`: same side, size grown by at least INCREASE_FRACTION (25 %) of the earlier size. Smaller
 *   top-ups are noise for a signal (a wallet averaging in by 5 % steps would flood the feed) and would also
 *   re-judge one idea many times.
 * The first snapshot of a wallet is a baseline: positions already open then have no knowable entry time.
 *
 * The entry price of an increase is the marginal price of the added size, recovered from the two average
 * entry prices: (s₂·e₂ − s₁·e₁)/(s₂ − s₁); for a new position it is the snapshot's entry price. The price at
 * detection is the market's mark price then — the price a follower could act at, and the reference the
 * judging horizons are measured from.
 */
export const ENTRY_RULE_VERSION = 'entry-v1';
export const INCREASE_FRACTION = 0.25;

export type EntryKind = 'new' | 'increase';

export type DetectedEntry = {
  wallet: string;
  market: string;
  side: PerpsSide;
  kind: EntryKind;
  /** Size added by this entry, base units. */
  size: number;
  /** Position size after it. */
  positionSize: number;
  entryPx: number;
  positionValueUsd: number;
  notionalUsd: number;
  leverage: number;
  priceAtDetection: number;
  detectedAt: number;
  walletRoi30d: number | null;
  smart: boolean;
  smartScore: number | null;
  whale: boolean;
  ruleVersion: string;
  entryRuleVersion: string;
};

export type EntryContext = {
  /** Mark price per market at the later snapshot; a market missing here falls back to positionValue/size. */
  marks: Readonly<Record<string, number>>;
  walletRoi30d: number | null;
  verdict: SmartVerdict;
  rule?: PerpsSmartRule;
};

export function detectEntries(prev: WalletSnapshot | null, next: WalletSnapshot, ctx: EntryContext): DetectedEntry[] {
  if (!prev) return [];
  const before = new Map(prev.positions.map((p) => [p.market, p]));
  const out: DetectedEntry[] = [];
  for (const p of next.positions) {
    const was = before.get(p.market);
    if (!was || was.side !== p.side) out.push(entry(next, p, 'new', p.size, p.entryPx, ctx));
    else if (p.size - was.size >= INCREASE_FRACTION * was.size) {
      const added = p.size - was.size;
      const marginal = (p.size * p.entryPx - was.size * was.entryPx) / added;
      // Rounding in the reported averages can push the marginal price out of sense; fall back to the average.
      out.push(entry(next, p, 'increase', added, marginal > 0 && Number.isFinite(marginal) ? marginal : p.entryPx, ctx));
    }
  }
  return out;
}

function entry(s: WalletSnapshot, p: PositionSnapshot, kind: EntryKind, size: number, entryPx: number, ctx: EntryContext): DetectedEntry {
  const mark = ctx.marks[p.market] ?? p.positionValueUsd / p.size;
  return {
    wallet: s.wallet,
    market: p.market,
    side: p.side,
    kind,
    size,
    positionSize: p.size,
    entryPx,
    positionValueUsd: p.positionValueUsd,
    notionalUsd: size * mark,
    leverage: p.leverage,
    priceAtDetection: mark,
    detectedAt: s.at,
    walletRoi30d: ctx.walletRoi30d,
    smart: ctx.verdict.smart,
    smartScore: ctx.verdict.smartScore,
    whale: isWhalePosition(p.positionValueUsd, ctx.rule ?? PERPS_SMART_V1),
    ruleVersion: ctx.verdict.ruleVersion,
    entryRuleVersion: ENTRY_RULE_VERSION,
  };
}
