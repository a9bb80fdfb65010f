import { COMPOSITE_LEAF_V1 } from '../../domain/ledger/composite-leaf';
import { defineLedgerRowSource } from './ledger-row-source';

type CrossRow = {
  id: string | number;
  mint: string;
  crossed_at: Date;
  tier: string;
  composite_score: number;
  threshold_at_cross: number;
  smart_money_in: number;
  max_mult_at_cross: number;
  age_s: number;
  mc_at_cross_usd: number;
};

/**
 * composite: every first cross once its tier is published (the leaf pins the tier), placed by the cross's time.
 * A cross is tiered within about a minute and an hour is sealed LEDGER_GRACE_S (≥ 60 s, 600 s by default) after
 * it closes; a cross still untiered at the seal is refused its tier by the table's trigger (migration 0022) and
 * recorded as skipped, so the rows the seal counted are exactly the rows committed.
 */
export const COMPOSITE_ROW_SOURCE = defineLedgerRowSource<CrossRow>({
  track: 'composite',
  leafVersion: COMPOSITE_LEAF_V1.version,
  table: 'composite_predictions',
  timeColumn: 'crossed_at',
  rowFilter: 'tier IS NOT NULL',
  columns: ['id', 'mint', 'crossed_at', 'tier', 'composite_score', 'threshold_at_cross', 'smart_money_in', 'max_mult_at_cross', 'age_s', 'mc_at_cross_usd'],
  rowName: 'composite prediction',
  leaf: (r) =>
    COMPOSITE_LEAF_V1.build({
      id: Number(r.id),
      mint: r.mint,
      predictedAt: r.crossed_at,
      tier: r.tier,
      compositeScore: r.composite_score,
      thresholdAtCross: r.threshold_at_cross,
      smartMoneyIn: r.smart_money_in,
      maxMultAtCross: r.max_mult_at_cross,
      ageSAtCross: r.age_s,
      mcAtCrossUsd: r.mc_at_cross_usd,
    }),
});
