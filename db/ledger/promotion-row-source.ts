import { PROMOTION_LEAF_V1 } from '../../domain/ledger/promotion-leaf';
import { defineLedgerRowSource } from './ledger-row-source';

type PromotionRow = {
  id: string | number;
  decided_at: Date;
  window_end: Date;
  rule_id: string;
  rule_sha256: string;
  champion: string;
  challenger: string;
  decision: string;
  n: number;
  evidence_sha256: string;
};

/** promotion: every decision of the shadow promotion rule (immutable), by `decided_at`. */
export const PROMOTION_ROW_SOURCE = defineLedgerRowSource<PromotionRow>({
  track: 'promotion',
  leafVersion: PROMOTION_LEAF_V1.version,
  table: 'model_promotions',
  timeColumn: 'decided_at',
  columns: ['id', 'decided_at', 'window_end', 'rule_id', 'rule_sha256', 'champion', 'challenger', 'decision', 'n', 'evidence_sha256'],
  rowName: 'promotion decision',
  leaf: (r) =>
    PROMOTION_LEAF_V1.build({
      id: Number(r.id),
      decidedAt: r.decided_at,
      windowEnd: r.window_end,
      ruleId: r.rule_id,
      ruleSha256: r.rule_sha256,
      champion: r.champion,
      challenger: r.challenger,
      decision: r.decision,
      n: r.n,
      evidenceSha256: r.evidence_sha256,
    }),
});
