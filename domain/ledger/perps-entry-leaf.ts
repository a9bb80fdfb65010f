import { asciiText, decimalText, decimalTextOrNull, fieldList, isoMillis, oneOf, safeInteger, sealLeaf, type LeafFormat } from './leaf-fields';

/**
 * The perps track's leaf, version 1: one smart-money entry as it was logged, committed hourly by the audit
 * ledger's machinery ordered by (detected_at, id). It pins what the entry claimed at detection — wallet,
 * market, side, size, the wallet's fill-derived entry price, the mark price a follower could act at, the
 * wallet's ROI and score, the whale flag and the rule versions that made it an entry — so a judged outcome can
 * never be lined up against a different claim later. Frozen like every leaf version (registered in
 * domain/ledger/ledger-tracks.ts); its time field is `detected_at`, where the other tracks say `predicted_at`.
 */
export type PerpsEntryLeafInputV1 = {
  id: number;
  exchange: string;
  wallet: string;
  market: string;
  side: 'long' | 'short';
  kind: 'new' | 'increase';
  size: number;
  entryPx: number;
  priceAtDetection: number;
  positionValueUsd: number;
  leverage: number;
  walletRoi30d: number | null;
  smartScore: number | null;
  whale: boolean;
  ruleVersion: string;
  entryRuleVersion: string;
  detectedAt: Date;
};

export const PERPS_ENTRY_LEAF_V1: LeafFormat<PerpsEntryLeafInputV1> = Object.freeze({
  track: 'perps',
  version: 1,
  timeField: 'detected_at',
  fields: fieldList(
    'detected_at', // ISO-8601 UTC, milliseconds, Z
    'entry_px', // decimal text > 0: the wallet's (marginal) entry price
    'entry_rule_version', // e.g. "entry-v1"
    'exchange', // e.g. "hyperliquid"
    'id', // the entry id (integer ≥ 1)
    'kind', // "new" | "increase"
    'leaf_version', // 1
    'leverage', // decimal text > 0
    'market',
    'position_value_usd', // decimal text ≥ 0, after the entry
    'price_at_detection', // decimal text > 0: the mark price the horizons are judged from
    'rule_version', // e.g. "perps-smart-v1"
    'side', // "long" | "short"
    'size', // decimal text > 0, base units added
    'smart_score', // decimal text or null
    'track', // "perps"
    'wallet',
    'wallet_roi_30d', // decimal text or null
    'whale', // 1 or 0
  ),
  build(p) {
    const leaf = {
      detected_at: isoMillis(p.detectedAt, 'detected_at'),
      entry_px: decimalText(p.entryPx, 'entry_px', { min: Number.MIN_VALUE }),
      entry_rule_version: asciiText(p.entryRuleVersion, 'entry_rule_version'),
      exchange: asciiText(p.exchange, 'exchange'),
      id: safeInteger(p.id, 'id', { min: 1 }),
      kind: oneOf(p.kind, ['new', 'increase'], 'kind'),
      leaf_version: 1,
      leverage: decimalText(p.leverage, 'leverage', { min: Number.MIN_VALUE }),
      market: asciiText(p.market, 'market', 64),
      position_value_usd: decimalText(p.positionValueUsd, 'position_value_usd', { min: 0 }),
      price_at_detection: decimalText(p.priceAtDetection, 'price_at_detection', { min: Number.MIN_VALUE }),
      rule_version: asciiText(p.ruleVersion, 'rule_version'),
      side: oneOf(p.side, ['long', 'short'], 'side'),
      size: decimalText(p.size, 'size', { min: Number.MIN_VALUE }),
      smart_score: decimalTextOrNull(p.smartScore, 'smart_score'),
      track: 'perps',
      wallet: asciiText(p.wallet, 'wallet'),
      wallet_roi_30d: decimalTextOrNull(p.walletRoi30d, 'wallet_roi_30d'),
      whale: p.whale ? 1 : 0,
    };
    return sealLeaf(PERPS_ENTRY_LEAF_V1, leaf.id, p.detectedAt, leaf);
  },
});
