import { isDigestHex } from '../digest/ledger-digest';
import { asciiText, fieldList, isoMillis, LeafFieldError, oneOf, safeInteger, sealLeaf, type LeafFormat } from './leaf-fields';

/**
 * The promotion track's leaf, version 1: one decision of the pre-registered shadow promotion rule. It pins the rule
 * (id and the SHA-256 of its document), the two model versions, the decision, how many resolved mints it rested on,
 * and the SHA-256 of the canonical evidence the decision was computed from (served in full by /api/accuracy).
 * `predicted_at` is the decision time (every leaf's tree time). Frozen like every leaf version.
 */
export type PromotionLeafInputV1 = {
  id: number;
  decidedAt: Date;
  windowEnd: Date;
  ruleId: string;
  ruleSha256: string;
  champion: string;
  challenger: string;
  decision: string;
  n: number;
  evidenceSha256: string;
};

const DECISIONS = ['promote', 'keep', 'insufficient_data'];

function digest(hex: string, field: string): string {
  if (!isDigestHex(hex)) throw new LeafFieldError(`${field}: 64 lowercase hex digits`);
  return hex;
}

export const PROMOTION_LEAF_V1: LeafFormat<PromotionLeafInputV1> = Object.freeze({
  track: 'promotion',
  version: 1,
  fields: fieldList(
    'challenger', // model version name judged
    'champion', // model version name serving when judged
    'decision', // promote | keep | insufficient_data
    'evidence_sha256', // 64 lowercase hex: SHA-256 of the evidence's canonical JSON
    'id', // the model_promotions row id
    'leaf_version', // 1
    'n', // resolved mints paired
    'predicted_at', // the decision time
    'rule_id',
    'rule_sha256', // 64 lowercase hex: SHA-256 of the rule document's bytes
    'track', // "promotion"
    'window_end', // evidence up to this time, ISO-8601 UTC, milliseconds, Z
  ),
  build(p) {
    const leaf = {
      challenger: asciiText(p.challenger, 'challenger'),
      champion: asciiText(p.champion, 'champion'),
      decision: oneOf(p.decision, DECISIONS, 'decision'),
      evidence_sha256: digest(p.evidenceSha256, 'evidence_sha256'),
      id: safeInteger(p.id, 'id', { min: 1 }),
      leaf_version: 1,
      n: safeInteger(p.n, 'n', { min: 0 }),
      predicted_at: isoMillis(p.decidedAt, 'predicted_at'),
      rule_id: asciiText(p.ruleId, 'rule_id'),
      rule_sha256: digest(p.ruleSha256, 'rule_sha256'),
      track: 'promotion',
      window_end: isoMillis(p.windowEnd, 'window_end'),
    };
    return sealLeaf(PROMOTION_LEAF_V1, leaf.id, p.decidedAt, leaf);
  },
});
