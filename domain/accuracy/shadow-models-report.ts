import { auc, auprc, baseRate, brier, logLoss } from './forward-metrics';
import type { PromotionEvidence } from './shadow-promotion';

export type ModelScore = { modelName: string; ageBucket: number; prob: number; graduated: boolean };
export type DecisionRow = {
  id: number;
  decidedAt: Date;
  windowEnd: Date;
  champion: string;
  challenger: string;
  decision: PromotionEvidence['decision'];
  evidence: PromotionEvidence;
  evidenceSha256: string;
};

const AGES = [30, 60] as const;

/**
 * The accuracy page's `shadow_models`: the serving version and every challenger side by side, per age, on their
 * resolved forward scores in the window (served and shadow alike), with the rule they are judged by and its latest
 * decisions. Figures side by side are over each version's own scores; the decisions are over paired mints only.
 */
export function buildShadowModelsSection(i: {
  rule: { id: string; sha256: string; document: string };
  champion: string;
  challengers: readonly string[];
  scores: readonly ModelScore[];
  decisions: readonly DecisionRow[];
}) {
  const models = [i.champion, ...i.challengers].map((name) => ({
    model_name: name,
    role: name === i.champion ? ('champion' as const) : ('challenger' as const),
    per_age: AGES.map((age) => {
      const xs = i.scores.filter((s) => s.modelName === name && s.ageBucket === age).map((s) => ({ prob: s.prob, label: s.graduated }));
      return { age_bucket: age, n: xs.length, base_rate: baseRate(xs), log_loss: logLoss(xs), brier: brier(xs), auc: auc(xs), auprc: auprc(xs) };
    }),
  }));
  return {
    rule: i.rule,
    champion: i.champion,
    models,
    decisions: i.decisions.map((d) => ({
      id: d.id,
      decided_at: d.decidedAt.toISOString(),
      window_end: d.windowEnd.toISOString(),
      champion: d.champion,
      challenger: d.challenger,
      decision: d.decision,
      n: d.evidence.n,
      positives: d.evidence.positives,
      mean_diff: d.evidence.mean_diff,
      upper_bound: d.evidence.upper_bound,
      per_age: d.evidence.per_age,
      evidence_sha256: d.evidenceSha256,
    })),
  };
}
