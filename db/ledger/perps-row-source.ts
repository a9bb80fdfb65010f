import { PERPS_ENTRY_LEAF_V1, type PerpsEntryLeafInputV1 } from '../../domain/ledger/perps-entry-leaf';
import { defineLedgerRowSource } from './ledger-row-source';

type EntryRow = {
  id: string | number;
  exchange: string;
  wallet: string;
  market: string;
  side: 'long' | 'short';
  kind: 'new' | 'increase';
  size: number;
  entry_px: number;
  price_at_detection: number;
  position_value_usd: number;
  leverage: number;
  wallet_roi_30d: number | null;
  smart_score: number | null;
  whale: boolean;
  rule_version: string;
  entry_rule_version: string;
  detected_at: Date;
};

/** A `perps_entries` row as the perps leaf v1 reads it (the columns named below). */
export function perpsLeafInput(r: EntryRow): PerpsEntryLeafInputV1 {
  return {
    id: Number(r.id),
    exchange: r.exchange,
    wallet: r.wallet,
    market: r.market,
    side: r.side,
    kind: r.kind,
    size: r.size,
    entryPx: r.entry_px,
    priceAtDetection: r.price_at_detection,
    positionValueUsd: r.position_value_usd,
    leverage: r.leverage,
    walletRoi30d: r.wallet_roi_30d,
    smartScore: r.smart_score,
    whale: r.whale,
    ruleVersion: r.rule_version,
    entryRuleVersion: r.entry_rule_version,
    detectedAt: r.detected_at,
  };
}

/**
 * perps: every smart-money entry of the perps observatory (an entry row with `smart`), placed by its detection
 * time. An entry is written by the snapshot that detects it, seconds after `detected_at`; migration 0026 puts the
 * seal trigger on perps_entries and a second one that keeps a sealed entry's leaf fields (and `smart`) as they
 * were counted, so an entry never starts or stops being a leaf of a sealed hour.
 */
export const PERPS_ROW_SOURCE = defineLedgerRowSource<EntryRow>({
  track: 'perps',
  leafVersion: PERPS_ENTRY_LEAF_V1.version,
  table: 'perps_entries',
  timeColumn: 'detected_at',
  rowFilter: 'smart',
  columns: [
    'id',
    'exchange',
    'wallet',
    'market',
    'side',
    'kind',
    'size',
    'entry_px',
    'price_at_detection',
    'position_value_usd',
    'leverage',
    'wallet_roi_30d',
    'smart_score',
    'whale',
    'rule_version',
    'entry_rule_version',
    'detected_at',
  ],
  rowName: 'perps entry',
  leaf: (r) => PERPS_ENTRY_LEAF_V1.build(perpsLeafInput(r)),
});
