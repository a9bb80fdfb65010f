import { pointLogLoss } from './forward-metrics';

/**
 * The shadow promotion rule, as pre-registered in docs/preregistration/shadow-promotion-v1.md (the document is the
 * authority: its section 5 holds these values as JSON, and a unit test holds the two equal). Pure: the SHA-256 of
 * the document is computed from its bytes by the integration and stored with every decision.
 */
export type PromotionRule = {
  id: string;
  /** Resolved mints paired (both versions scored them forward) before any decision but `insufficient_data`. */
  minMints: number;
  /** Graduates among them: log loss at a 1–2% base rate is mostly the negatives' until enough positives exist. */
  minGraduates: number;
  /** One-sided 95% normal quantile. */
  zOneSided: number;
  /** Probabilities are clipped to [eps, 1 − eps] before the log loss. */
  logLossEps: number;
};

export const SHADOW_PROMOTION_V1: PromotionRule = Object.freeze({
  id: 'shadow-promotion-v1',
  minMints: 1000,
  minGraduates: 30,
  zOneSided: 1.6448536269514722,
  logLossEps: 1e-6,
});

/** One (mint, age) scored forward by both versions, with its outcome. */
export type PairedScore = { mint: string; ageBucket: number; champion: number; challenger: number; graduated: boolean };

export type PromotionDecision = 'promote' | 'keep' | 'insufficient_data';

export type PromotionEvidence = {
  rule_id: string;
  champion: string;
  challenger: string;
  window_end: string;
  /** Resolved mints paired, and the graduates among them. */
  n: number;
  positives: number;
  /** Mean over mints of (challenger − champion) log loss, each mint's ages averaged first; negative favours the challenger. */
  mean_diff: number | null;
  sd_diff: number | null;
  /** mean_diff + z · sd / √n: the challenger is promoted only while this is below 0. */
  upper_bound: number | null;
  per_age: { age_bucket: number; n: number; positives: number; champion_log_loss: number | null; challenger_log_loss: number | null }[];
  decision: PromotionDecision;
};

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/**
 * Judges a challenger against the champion on paired forward log loss. The unit is the mint: a mint's two ages share
 * one outcome and most of their features, so they are averaged into one difference before the mean, the standard
 * deviation and n are taken; counting them apart would shrink the bound by about √2 on evidence that is not twice as
 * large.
 */
export function judgeChallenger(
  pairs: readonly PairedScore[],
  o: { rule: PromotionRule; champion: string; challenger: string; windowEnd: Date },
): PromotionEvidence {
  const loss = (p: number, y: boolean) => pointLogLoss(Math.min(1 - o.rule.logLossEps, Math.max(o.rule.logLossEps, p)), y);
  const byMint = new Map<string, { diffs: number[]; graduated: boolean }>();
  for (const p of pairs) {
    const m = byMint.get(p.mint) ?? { diffs: [], graduated: p.graduated };
    m.diffs.push(loss(p.challenger, p.graduated) - loss(p.champion, p.graduated));
    byMint.set(p.mint, m);
  }
  const diffs = [...byMint.values()].map((m) => mean(m.diffs));
  const n = diffs.length;
  const positives = [...byMint.values()].filter((m) => m.graduated).length;
  const meanDiff = n ? mean(diffs) : null;
  const sd = n > 1 ? Math.sqrt(diffs.reduce((s, d) => s + (d - meanDiff!) ** 2, 0) / (n - 1)) : null;
  const upper = meanDiff !== null && sd !== null ? meanDiff + (o.rule.zOneSided * sd) / Math.sqrt(n) : null;
  const decision: PromotionDecision =
    n < o.rule.minMints || positives < o.rule.minGraduates || upper === null ? 'insufficient_data' : upper < 0 ? 'promote' : 'keep';
  const ages = [...new Set(pairs.map((p) => p.ageBucket))].sort((a, b) => a - b);
  return {
    rule_id: o.rule.id,
    champion: o.champion,
    challenger: o.challenger,
    window_end: o.windowEnd.toISOString(),
    n,
    positives,
    mean_diff: meanDiff,
    sd_diff: sd,
    upper_bound: upper,
    per_age: ages.map((age) => {
      const at = pairs.filter((p) => p.ageBucket === age);
      const avg = (f: (p: PairedScore) => number) => (at.length ? mean(at.map(f)) : null);
      return {
        age_bucket: age,
        n: at.length,
        positives: at.filter((p) => p.graduated).length,
        champion_log_loss: avg((p) => loss(p.champion, p.graduated)),
        challenger_log_loss: avg((p) => loss(p.challenger, p.graduated)),
      };
    }),
    decision,
  };
}

/** The JSON block of the document's section 5 (snake_case). */
export type PromotionRuleJson = { id: string; min_mints: number; min_graduates: number; z_one_sided: number; log_loss_eps: number };

export const promotionRuleFromJson = (j: PromotionRuleJson): PromotionRule => ({
  id: j.id,
  minMints: j.min_mints,
  minGraduates: j.min_graduates,
  zOneSided: j.z_one_sided,
  logLossEps: j.log_loss_eps,
});
