import type { ShadowStore } from '../../db/accuracy/shadow-store';
import type { RegisteredDocument } from '../../db/verdict/preregistration-document';
import { judgeChallenger, SHADOW_PROMOTION_V1 } from '../../domain/accuracy/shadow-promotion';
import { canonicalBytes, type CanonicalValue } from '../../domain/digest/canonical-json';
import { digestToHex, sha256 } from '../../domain/digest/ledger-digest';
import { LABEL_VERSION } from '../../domain/launch/outcome-labels';
import { shadowVersions } from '../../domain/scoring/grad-model-versions';
import type { ShadowPromotionRunResult } from '../../workflows/accuracy/shadow-promotion-contract';

export type ShadowPromotionDeps = {
  shadowStore: ShadowStore;
  /** MODEL_CHAMPION then MODEL_CHALLENGERS: the champion before any promotion, and every version that may shadow. */
  configuredGradVersions: readonly string[];
  /** The rule's document (its SHA-256 is stored with every decision); read once per process. */
  promotionRuleDocument: () => RegisteredDocument;
  now: () => Date;
};

const HOUR_MS = 3_600_000;

export function createShadowPromotionActivities(d: ShadowPromotionDeps) {
  return {
    /**
     * The run of the current UTC hour (docs/preregistration/shadow-promotion-v1.md): each challenger without a final
     * decision against the serving champion is judged on its paired forward log loss up to the hour's start, and the
     * decision stored once per (hour, challenger). At most one promotion per run: the others are judged against the new
     * champion from the next run. A retry or a second run in the same hour answers the stored decisions.
     */
    async judgeShadowModels(): Promise<ShadowPromotionRunResult> {
      const now = d.now();
      const windowEnd = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
      const [configuredChampion] = d.configuredGradVersions;
      const champion = await d.shadowStore.currentChampion(configuredChampion!);
      const doc = d.promotionRuleDocument();
      const decisions: ShadowPromotionRunResult['decisions'] = [];
      for (const challenger of shadowVersions(champion, d.configuredGradVersions)) {
        const final = await d.shadowStore.finalDecision(challenger, champion);
        if (final) {
          decisions.push({ challenger, decision: final.decision, n: final.evidence.n, created: false });
          continue;
        }
        const stored =
          (await d.shadowStore.decisionAt(windowEnd, challenger)) ??
          (await (async () => {
            const pairs = await d.shadowStore.pairs(champion, challenger, windowEnd, LABEL_VERSION);
            const evidence = judgeChallenger(pairs, { rule: SHADOW_PROMOTION_V1, champion, challenger, windowEnd });
            const r = await d.shadowStore.insertDecision({
              windowEnd,
              decidedAt: now,
              ruleId: SHADOW_PROMOTION_V1.id,
              ruleSha256: doc.sha256,
              champion,
              challenger,
              decision: evidence.decision,
              evidence,
              evidenceSha256: digestToHex(sha256(canonicalBytes(evidence as unknown as CanonicalValue))),
            });
            decisions.push({ challenger, decision: r.decision.decision, n: r.decision.evidence.n, created: r.created });
            return null;
          })());
        if (stored) decisions.push({ challenger, decision: stored.decision, n: stored.evidence.n, created: false });
        if (decisions[decisions.length - 1]!.decision === 'promote') break;
      }
      return { windowEnd: windowEnd.toISOString(), champion, decisions };
    },
  };
}
export type ShadowPromotionActivities = ReturnType<typeof createShadowPromotionActivities>;
